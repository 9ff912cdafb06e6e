import type { Scenario } from '../scenario.ts';

export const threeWorkers: Scenario = {
  id: 4,
  title: 'three workers on one Redis and one shared rate limit',
  run: async (ctx) => {
    ctx.verdict.check('scenario built', false, 'not built yet');
  },
};
