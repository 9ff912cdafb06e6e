import { setTimeout as sleep } from 'node:timers/promises';
import type { VanishConfirmSettings } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import { type ChildAbsence, childAbsence, childSetPolicy } from './childAbsence.ts';
import { storedChildren } from './childWrites.ts';
import { shapeOf } from './columns.ts';
import { rowsEqual, type TableShape } from './diff.ts';
import { buildIncoming, type Incoming } from './incoming.ts';
import { RunDeadlineError } from './runDeadline.ts';
import { judgeShrink } from './shrinkRule.ts';
import type {
  ChildEntity,
  DetailSpec,
  Row,
  RowContext,
  Scope,
  StreamDefinition,
  WindowWarning,
} from './types.ts';

/**
 * Absence is a claim for a record's children too (docs/operations.md "Withheld vanishes"): a
 * detail answer that omits stored children (an order's holds or lines, an IN's notes, a product's
 * selling infos) would delete them, and an order's active hold omitted is announced released. A
 * lagging replica answers `holds: []` now and then; so such a record's detail is read again (after
 * the pause, at most the further reads of FULFILLMENT_VANISH_CONFIRM_*, each a detail call counted
 * like any other), and only what agreeing answers omit goes (the shrink rule, shrinkRule.ts, with
 * the child-set threshold of childAbsence.ts). Without agreement nothing goes: the record keeps its
 * stored children (its list row lands alone, or, fetched by key, it waits), its detail is asked for
 * again, and the window reports a withheld vanish. Answers that drop nothing cost no further call
 * and, when their record did not change, not even a read. Upstream calls and short pool reads
 * only: no transaction is open and no client held.
 */

export interface ConfirmChildrenArgs<R, C> {
  db: Queryable;
  client: C;
  stream: StreamDefinition<R, C>;
  spec: DetailSpec<R, C>;
  scope: Scope;
  ctx: RowContext;
  settings: VanishConfirmSettings;
  /** Throws once the run's deadline has passed: then no further read, the vanish is withheld. */
  checkDeadline?: (() => void) | undefined;
  /** The parent table's shape and its stored rows of the window's keys (readWindow.ts). */
  shape: TableShape;
  storedByKey: ReadonlyMap<string, Row>;
  /** The window's records after its detail calls. */
  incoming: readonly Incoming<R>[];
  /**
   * The records a detail call answered in this window, by detail key, with the list record the
   * detail replaced (undefined: fetched by key, nothing to fall back to).
   */
  answered: ReadonlyMap<string, Incoming<R> | undefined>;
}

/** One record whose children no agreeing answers confirmed gone: they stay as stored. */
export interface ChildrenWithheld {
  recordKey: string;
  /** Its stored children, and how many of them the latest answer omitted (kept). */
  heldRows: number;
  keptRows: number;
  /** How many stored children each answer omitted, in order. */
  omittedRows: number[];
}

export interface ConfirmedChildren<R> {
  incoming: Incoming<R>[];
  /** Further detail calls made. */
  apiCalls: number;
  withheld: ChildrenWithheld[];
}

/** A record whose answer omitted stored children, through its reads. */
interface Pending<R> {
  detailKey: string;
  item: Incoming<R>;
  fallback: Incoming<R> | undefined;
  stored: Row[][];
  held: number;
  reads: Set<string>[];
  latest: Incoming<R>;
}

/** Confirms the children the window's detail answers omit; see the file comment. */
export async function confirmChildren<R, C>(args: ConfirmChildrenArgs<R, C>): Promise<ConfirmedChildren<R>> {
  const out: ConfirmedChildren<R> = { incoming: [...args.incoming], apiCalls: 0, withheld: [] };
  let pending = await omittingAnswers(args);
  // Per record: the item to store instead (its latest answer, or its list row), null to store none.
  const settled = new Map<Incoming<R>, Incoming<R> | null>();
  const withhold = (p: Pending<R>) => {
    settled.set(p.item, p.fallback ?? null);
    const kept = p.reads.at(-1)?.size ?? 0;
    const omittedRows = p.reads.map((r) => r.size);
    out.withheld.push({ recordKey: p.detailKey, heldRows: p.held, keptRows: kept, omittedRows });
  };
  const policy = childSetPolicy(args.settings);
  while (pending.length > 0) {
    const again: Pending<R>[] = [];
    for (const p of pending) {
      const verdict = judgeShrink(p.reads, p.held, policy);
      if (verdict.kind === 'vanish') settled.set(p.item, p.latest);
      else if (verdict.kind === 'withhold') withhold(p);
      else again.push(p);
    }
    pending = [];
    if (again.length > 0) await sleep(args.settings.pauseMs);
    for (const [n, p] of again.entries()) {
      if (!withinDeadline(args)) {
        for (const rest of again.slice(n)) withhold(rest);
        break;
      }
      const answer = await readAgain(args, p);
      out.apiCalls += 1;
      if (!answer) withhold(p);
      else {
        p.latest = answer.item;
        p.reads.push(answer.absence.missing);
        pending.push(p);
      }
    }
  }
  out.incoming = out.incoming.flatMap((item) => {
    const instead = settled.get(item);
    if (instead === undefined) return [item];
    return instead === null ? [] : [instead];
  });
  return out;
}

/**
 * The answered records that changed (an unchanged parent row writes no children) and omit stored
 * children: one short read per child table, only when some answered record changed.
 */
async function omittingAnswers<R, C>(args: ConfirmChildrenArgs<R, C>): Promise<Pending<R>[]> {
  const { stream, spec, shape, storedByKey, ctx } = args;
  const children = stream.entity.children ?? [];
  if (children.length === 0) return [];
  const changed = args.incoming.filter((item) => {
    const stored = storedByKey.get(item.key);
    return (
      stored !== undefined &&
      args.answered.has(spec.key(item.record)) &&
      (stream.entity.hasChildren?.(item.record) ?? true) &&
      !rowsEqual(stored, item.row, shape)
    );
  });
  if (changed.length === 0) return [];
  const shapes = children.map((child) => shapeOf(child.table, child.key));
  const parents = changed.map((item) => item.row);
  const stored = [];
  for (const child of children)
    stored.push(await storedChildren(args.db, child as ChildEntity<unknown>, stream.entity.key, parents));
  const pending: Pending<R>[] = [];
  for (const item of changed) {
    const ofItem = stored.map((s) => [...s.ofParent(item.row)]);
    const absence = absenceOf(children, shapes, item.record, ctx, ofItem);
    if (!absence || absence.missing.size === 0) continue;
    const detailKey = spec.key(item.record);
    const fallback = args.answered.get(detailKey);
    const reads = [absence.missing];
    pending.push({ detailKey, item, fallback, stored: ofItem, held: absence.held, reads, latest: item });
  }
  return pending;
}

/** `childAbsence`, or undefined when the record's children cannot be built (its preparation rejects it). */
function absenceOf<R>(...args: Parameters<typeof childAbsence<R>>): ChildAbsence | undefined {
  try {
    return childAbsence(...args);
  } catch {
    return undefined;
  }
}

/** False once the run's deadline has passed (no further read); other errors are thrown. */
function withinDeadline<R, C>(args: ConfirmChildrenArgs<R, C>): boolean {
  try {
    args.checkDeadline?.();
    return true;
  } catch (error) {
    if (error instanceof RunDeadlineError) return false;
    throw error;
  }
}

/**
 * One further detail call for a pending record, with what its answer omits; undefined when it
 * failed or cannot be stored (nothing is confirmed). Refused credentials and a long Retry-After
 * throw, failing the window like any detail call.
 */
async function readAgain<R, C>(
  args: ConfirmChildrenArgs<R, C>,
  p: Pending<R>,
): Promise<{ item: Incoming<R>; absence: ChildAbsence } | undefined> {
  const { stream, ctx } = args;
  const answer = await args.spec.fetch({
    client: args.client,
    scope: args.scope,
    key: p.detailKey,
    listed: p.fallback?.record,
  });
  if ('failure' in answer) return undefined;
  const item = buildIncoming([answer.record], stream.entity, args.shape, ctx).incoming[0];
  if (!item || item.key !== p.item.key) return undefined;
  const children = stream.entity.children ?? [];
  const shapes = children.map((child) => shapeOf(child.table, child.key));
  const absence = absenceOf(children, shapes, item.record, ctx, p.stored);
  return absence ? { item, absence } : undefined;
}

/** The warning of each withheld record: logged with its window and kept in its run's details. */
export function withheldWarnings(withheld: readonly ChildrenWithheld[]): WindowWarning[] {
  return withheld.map((w) => ({
    message:
      'vanish withheld: a detail answer omitting stored children was not confirmed by a second read; they stay, the next run decides',
    data: { record: w.recordKey, heldRows: w.heldRows, keptRows: w.keptRows, omittedRows: w.omittedRows },
  }));
}
