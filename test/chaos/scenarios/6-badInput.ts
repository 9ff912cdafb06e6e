import type { Scenario } from '../scenario.ts';

export const badInput: Scenario = {
  id: 6,
  title: 'bad input: garbage in every variable, bad arguments to every command',
  run: async (ctx) => {
    ctx.verdict.check('scenario built', false, 'not built yet');
  },
};
