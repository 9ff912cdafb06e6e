import { describe, expect, it } from 'vitest';
import { isLargeShrink, judgeShrink, type ShrinkPolicy } from './shrinkRule.ts';

const policy: ShrinkPolicy = { share: 0.5, minRows: 10, rereads: 2 };
const keys = (...k: string[]) => new Set(k);
const range = (n: number, from = 0) => new Set(Array.from({ length: n }, (_, i) => `k${from + i}`));

describe('isLargeShrink', () => {
  it('every row is always large, whatever the scope holds', () => {
    expect(isLargeShrink(1, 1, policy)).toBe(true);
    expect(isLargeShrink(3, 3, policy)).toBe(true);
    expect(isLargeShrink(41, 41, policy)).toBe(true);
  });

  it('the share or more is large from minRows rows held', () => {
    expect(isLargeShrink(6, 10, policy)).toBe(true);
    expect(isLargeShrink(5, 10, policy)).toBe(true); // an answer with half the rows
    expect(isLargeShrink(4, 10, policy)).toBe(false);
    expect(isLargeShrink(21, 41, policy)).toBe(true);
    expect(isLargeShrink(20, 41, policy)).toBe(false);
    expect(isLargeShrink(47, 94, policy)).toBe(true);
  });

  it('below minRows only every row counts', () => {
    expect(isLargeShrink(8, 9, policy)).toBe(false);
    expect(isLargeShrink(9, 9, policy)).toBe(true);
  });

  it('nothing missing, or nothing held, is no shrink', () => {
    expect(isLargeShrink(0, 10, policy)).toBe(false);
    expect(isLargeShrink(0, 0, policy)).toBe(false);
  });

  it('follows the settings', () => {
    const strict = { share: 0.2, minRows: 5, rereads: 1 };
    expect(isLargeShrink(1, 5, strict)).toBe(true);
    expect(isLargeShrink(1, 6, strict)).toBe(false);
  });
});

describe('judgeShrink', () => {
  it('a small shrink vanishes at once, without another read', () => {
    expect(judgeShrink([keys('a', 'b')], 41, policy)).toEqual({ kind: 'vanish', gone: keys('a', 'b') });
    expect(judgeShrink([keys()], 41, policy)).toEqual({ kind: 'vanish', gone: keys() });
  });

  it('a large shrink is read again', () => {
    expect(judgeShrink([range(41)], 41, policy)).toEqual({ kind: 'reread' });
    expect(judgeShrink([range(21)], 41, policy)).toEqual({ kind: 'reread' });
  });

  it('one empty answer followed by a full one vanishes nothing', () => {
    expect(judgeShrink([range(41), keys()], 41, policy)).toEqual({ kind: 'vanish', gone: keys() });
  });

  it('a large shrink followed by a small one vanishes only what the latest answer omits', () => {
    expect(judgeShrink([range(41), keys('k3')], 41, policy)).toEqual({ kind: 'vanish', gone: keys('k3') });
  });

  it('a real emptying, every row gone in two reads, vanishes every row', () => {
    expect(judgeShrink([range(41), range(41)], 41, policy)).toEqual({ kind: 'vanish', gone: range(41) });
  });

  it('two reads omitting the same half vanish that half', () => {
    expect(judgeShrink([range(21), range(21)], 41, policy)).toEqual({ kind: 'vanish', gone: range(21) });
  });

  it('reads that disagree are read again, then withheld: nothing vanishes', () => {
    expect(judgeShrink([range(41), range(21)], 41, policy)).toEqual({ kind: 'reread' });
    expect(judgeShrink([range(41), range(21), range(21, 20)], 41, policy)).toEqual({
      kind: 'withhold',
      kept: 21,
    });
  });

  it('agreement is between consecutive reads, whichever came first', () => {
    expect(judgeShrink([range(21, 20), range(41), range(41)], 41, policy)).toEqual({
      kind: 'vanish',
      gone: range(41),
    });
  });

  it('reads at most `rereads` more times', () => {
    const once = { ...policy, rereads: 1 };
    expect(judgeShrink([range(41)], 41, once)).toEqual({ kind: 'reread' });
    expect(judgeShrink([range(41), range(30)], 41, once)).toEqual({ kind: 'withhold', kept: 30 });
  });
});
