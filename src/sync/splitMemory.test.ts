import { describe, expect, it } from 'vitest';
import { nextSplitMemory, rememberedNodes, SPLIT_MEMORY_HOURS, splitSignature } from './splitMemory.ts';

const now = new Date('2026-06-02T18:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();

describe('splitSignature', () => {
  it('names a filter or snapshot window by its filter, whatever the order of its members', () => {
    const a = splitSignature({ kind: 'snapshot', filter: { warehouseCode: 'GLW', subInventoryCode: 'FG' } });
    const b = splitSignature({ kind: 'snapshot', filter: { subInventoryCode: 'FG', warehouseCode: 'GLW' } });
    expect(a).toBe(b);
    expect(splitSignature({ kind: 'snapshot' })).toBe(splitSignature({ kind: 'snapshot', filter: {} }));
    expect(splitSignature({ kind: 'filter', filter: { warehouseCode: 'GLW' } })).not.toBe(
      splitSignature({ kind: 'snapshot', filter: { warehouseCode: 'GLW' } }),
    );
  });

  it('has none for time windows: their size is adaptive already', () => {
    expect(splitSignature({ kind: 'minute' })).toBeUndefined();
    expect(splitSignature({ kind: 'day' })).toBeUndefined();
  });
});

describe('rememberedNodes', () => {
  it('answers the nodes of a recent memory, none of an old or missing one', () => {
    expect([...rememberedNodes({ nodes: ['a', 'b'], since: hoursAgo(1) }, now)]).toEqual(['a', 'b']);
    expect(rememberedNodes({ nodes: ['a'], since: hoursAgo(SPLIT_MEMORY_HOURS) }, now).size).toBe(0);
    expect(rememberedNodes({ nodes: ['a'], since: 'not a date' }, now).size).toBe(0);
    expect(rememberedNodes(undefined, now).size).toBe(0);
  });
});

describe('nextSplitMemory', () => {
  const tally = (entries: Array<[string, number, boolean]>) =>
    new Map(entries.map(([node, rows, tooLarge]) => [node, { rows, tooLarge }]));

  it('remembers what was too large, from now when the run read from the whole scope', () => {
    expect(
      nextSplitMemory({
        previous: undefined,
        used: false,
        tally: tally([['whole', 0, true]]),
        maxRows: 100,
        now,
      }),
    ).toEqual({ nodes: ['whole'], since: now.toISOString() });
  });

  it('keeps a remembered node while its parts answer more than half the cap, with its age', () => {
    const previous = { nodes: ['whole', 'GLW'], since: hoursAgo(3) };
    const next = nextSplitMemory({
      previous,
      used: true,
      tally: tally([
        ['whole', 80, false],
        ['GLW', 40, false],
      ]),
      maxRows: 100,
      now,
    });
    expect(next).toEqual({ nodes: ['whole'], since: previous.since });
  });

  it('forgets everything once the answers stay small: the next run asks the whole scope', () => {
    const previous = { nodes: ['whole'], since: hoursAgo(3) };
    expect(
      nextSplitMemory({ previous, used: true, tally: tally([['whole', 12, false]]), maxRows: 100, now }),
    ).toBeUndefined();
  });
});
