import type { Scenario } from '../scenario.ts';

export const killWorker: Scenario = {
  id: 2,
  title: '20 kill -9 of a worker at random moments',
  run: async (ctx) => {
    ctx.verdict.check('scenario built', false, 'not built yet');
  },
};
