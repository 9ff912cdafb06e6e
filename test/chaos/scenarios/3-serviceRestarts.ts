import type { Scenario } from '../scenario.ts';

export const serviceRestarts: Scenario = {
  id: 3,
  title: 'a Redis restart and a Postgres restart under a running worker',
  run: async (ctx) => {
    ctx.verdict.check('scenario built', false, 'not built yet');
  },
};
