import { describe, expect, it } from 'vitest';
import { stringifyIteratively, stringifyJson } from '../../src/simulator/json.ts';
import { sim } from './helpers.ts';

describe('the JSON the simulator sends', () => {
  it('is the same text as JSON.stringify for every record of a world', async () => {
    const s = await sim({ volume: { historyDays: 2 } });
    try {
      const truth = s.truth();
      expect(stringifyIteratively(truth)).toBe(JSON.stringify(truth));
      const odd = {
        a: [1, undefined, null, () => 1, -0, Number.NaN, 'x\u0000\ud800"\\'],
        b: undefined,
        c: new Date('2026-11-01T08:00:00Z'),
        d: { e: {}, f: [] },
      };
      expect(stringifyIteratively(odd)).toBe(JSON.stringify(odd));
    } finally {
      await s.close();
    }
  });

  it('writes values nested deeper than JSON.stringify can', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 1; i < 8000; i++) deep = { node: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = stringifyJson({ payload: [deep] });
    expect(text).toBe(`{"payload":[${'{"node":'.repeat(7999)}{}${'}'.repeat(7999)}]}`);
  });
});
