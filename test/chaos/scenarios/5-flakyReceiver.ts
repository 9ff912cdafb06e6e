import type { Scenario } from '../scenario.ts';

export const flakyReceiver: Scenario = {
  id: 5,
  title: 'a flaky webhook receiver and a Redis flush mid-run',
  run: async (ctx) => {
    ctx.verdict.check('scenario built', false, 'not built yet');
  },
};
