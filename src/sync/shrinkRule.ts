import type { VanishConfirmSettings } from '../config/types.ts';

/**
 * Absence is a claim (docs/operations.md "Withheld vanishes"): an answer that would take much of
 * what a scope holds as gone (zero stored inventory, close open records) is read again before
 * anything vanishes, and only what agreeing answers omit vanishes. Pure: the reads and the pause
 * are confirmShrink.ts's.
 */

/** What the rule needs of the settings: the share, the rows it applies from, the further reads. */
export type ShrinkPolicy = Pick<VanishConfirmSettings, 'share' | 'minRows' | 'rereads'>;

/**
 * Whether an answer omitting `missing` of the `held` rows of its scope is a large shrink, to be
 * confirmed before anything vanishes: every row, or `share` or more of at least `minRows` (an
 * answer with exactly half the rows is as suspect as one with fewer).
 */
export function isLargeShrink(missing: number, held: number, policy: ShrinkPolicy): boolean {
  if (missing <= 0 || held <= 0) return false;
  if (missing >= held) return true;
  return held >= policy.minRows && missing >= policy.share * held;
}

/** What to do with the reads so far. */
export type ShrinkVerdict =
  /** Vanish these keys (the latest answer's missing ones): a small shrink, or one two reads agree on. */
  | { kind: 'vanish'; gone: ReadonlySet<string> }
  /** Read the same call again, after the pause. */
  | { kind: 'reread' }
  /** No two reads agree and none is left: vanish nothing; `kept` rows stay as stored. */
  | { kind: 'withhold'; kept: number };

/**
 * Judges the reads of one call so far: for each answer, the keys of the scope's stored rows it
 * omits (oldest first), out of `held`. The latest answer decides when its shrink is small; a large
 * one vanishes only when the answer before it omitted exactly the same rows (a real emptying: every
 * row gone in two reads). Otherwise the call is read again, at most `rereads` times, and then the
 * shrink is withheld: the rows stay, and the next run decides.
 */
export function judgeShrink(
  missingPerRead: readonly ReadonlySet<string>[],
  held: number,
  policy: ShrinkPolicy,
): ShrinkVerdict {
  const latest = missingPerRead.at(-1);
  if (latest === undefined) return { kind: 'reread' };
  if (!isLargeShrink(latest.size, held, policy)) return { kind: 'vanish', gone: latest };
  const previous = missingPerRead.at(-2);
  if (previous !== undefined && sameKeys(previous, latest)) return { kind: 'vanish', gone: latest };
  if (missingPerRead.length <= policy.rereads) return { kind: 'reread' };
  return { kind: 'withhold', kept: latest.size };
}

function sameKeys(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const key of a) if (!b.has(key)) return false;
  return true;
}

/**
 * What an open-list answer would take as gone, set by the stream's fetch: the keys of stored
 * records its part covers that it did not list, out of how many it covers.
 */
export interface Absent {
  held: number;
  missing: string[];
}

/** The engine's verdict on an answer's absences (confirmShrink.ts), carried to its preparation. */
export type ShrinkOutcome =
  /** These keys may vanish (a small shrink, or a confirmed one). */
  | { withheld: false; gone: ReadonlySet<string> }
  /** Nothing vanishes: `kept` of `held` rows stay; `rows` is each answer's row count, in order. */
  | { withheld: true; kept: number; held: number; rows: number[] };
