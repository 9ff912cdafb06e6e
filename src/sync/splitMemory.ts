import { stableJson } from './normalize.ts';

/**
 * What a stream and scope remember of the splits that worked (issue: a scope over the row cap paid
 * its whole discovery every run: the whole call coming back too large, then every part). Pure:
 * runStream.ts keeps it on the cursor (`position.split`), fetchSplit.ts applies it.
 *
 * A node is a window divided by the stream's finer filters (a snapshot or filter window: time
 * windows have their own adaptive size, windowSize.ts). A remembered node is divided at once,
 * without asking it whole. It stays remembered while it was too large this run or its parts
 * together still answered more than half the row cap; otherwise the next run asks it whole again
 * (grows back). The memory is also dropped after `SPLIT_MEMORY_HOURS`, so a run then discovers the
 * split from the whole scope again: a part a remembered split leaves out (a warehouse where the
 * scope held nothing) is read at least that often.
 */

/** The memory as kept on the cursor. */
export interface SplitMemory {
  /** Signatures (`splitSignature`) of the windows to divide without asking them whole. */
  nodes: string[];
  /** When the scope was last read from its whole window (ISO): the memory is dropped a while after. */
  since: string;
}

/** How long a memory is used before a run discovers the split from the whole scope again. */
export const SPLIT_MEMORY_HOURS = 24;

/** At most this many nodes are kept (a bound on what the cursor holds). */
export const MAX_SPLIT_NODES = 500;

/** What one run saw of a node: the rows its parts answered, and whether it was too large itself. */
export interface SplitTally {
  rows: number;
  tooLarge: boolean;
}

/** A window's identity across runs: its kind and filter (snapshot and filter windows only). */
export function splitSignature(window: {
  kind: string;
  filter?: Readonly<Record<string, string>> | undefined;
}): string | undefined {
  if (window.kind !== 'snapshot' && window.kind !== 'filter') return undefined;
  return `${window.kind}:${stableJson(window.filter ?? {})}`;
}

/** The nodes to divide without asking this run: none once the memory is too old. */
export function rememberedNodes(memory: SplitMemory | undefined, now: Date): ReadonlySet<string> {
  if (!memory) return new Set();
  const age = now.getTime() - Date.parse(memory.since);
  if (!(age >= 0 && age < SPLIT_MEMORY_HOURS * 3_600_000)) return new Set();
  return new Set(memory.nodes);
}

/**
 * The memory after a run that stored all its windows: the nodes too large this run, and the
 * remembered ones whose parts still answered more than half of `maxRows`; undefined when none.
 * `used`: this run started from the memory (its `since` carries over), else it read from the whole.
 */
export function nextSplitMemory(args: {
  previous: SplitMemory | undefined;
  used: boolean;
  tally: ReadonlyMap<string, SplitTally>;
  maxRows: number;
  now: Date;
}): SplitMemory | undefined {
  const nodes = [...args.tally]
    .filter(([, t]) => t.tooLarge || t.rows > args.maxRows / 2)
    .map(([node]) => node)
    .slice(0, MAX_SPLIT_NODES);
  if (nodes.length === 0) return undefined;
  const since = args.used && args.previous ? args.previous.since : args.now.toISOString();
  return { nodes, since };
}
