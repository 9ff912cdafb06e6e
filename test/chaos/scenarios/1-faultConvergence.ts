import type { Scenario } from '../scenario.ts';

export const faultConvergence: Scenario = {
  id: 1,
  title: 'fault convergence: a week at 10% 5xx, 5% 429, 2% timeouts, 1% malformed, then one clean sync',
  run: async (ctx) => {
    ctx.verdict.check('scenario built', false, 'not built yet');
  },
};
