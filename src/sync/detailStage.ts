import type { VanishConfirmSettings } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import { type ChildrenWithheld, confirmChildren } from './confirmChildren.ts';
import {
  type DetailFailure,
  type DetailRequest,
  type DueRequests,
  dueDetailRequests,
  heldBackKeys,
} from './detailRequests.ts';
import { keyOf, rowsEqual } from './diff.ts';
import { type Incoming, withContentHash } from './incoming.ts';
import { type CommitBeside, readWindow, type WindowRead } from './readWindow.ts';
import { keyProblems, keyText } from './rowCheck.ts';
import type {
  DetailSpec,
  FetchProgress,
  FetchResult,
  RejectedRecord,
  RowContext,
  Scope,
  StreamDefinition,
  Window,
} from './types.ts';

/**
 * The detail stage: every detail call of a window, for every kind of detail (orders, INs,
 * products), between its list calls and its preparation, with no transaction open and no client
 * held. It reads the due list, fetches by key what the window did not list (due requests where
 * `followDue`, and `FetchResult.byKey` unless backing off or quarantined), reads the stored rows,
 * then fetches the detail of listed records that changed, are `wanted`, or are due. Every failure
 * (not found, rejected by its schema, failing after retries) is a `DetailFailure`: the commit
 * counts the attempt and applies the one backoff rule (detailRequests.ts); the list row still lands.
 */

/** A window's records, with the details this stage fetched, beside their stored rows. */
export interface DetailedWindow<R> extends WindowRead<R> {
  /** The due requests this window read (served ones are deleted in its write). */
  due: DueRequests;
  failures: DetailFailure[];
  /** Detail calls made (the list calls are counted by the fetch). */
  apiCalls: number;
  /** Records fetched by key (counted as fetched beside the list's). */
  fetchedByKey: number;
  /** Due requests of records a window listing every record did not list: gone, served. */
  gone: DetailRequest[];
  /** Records whose answers omitted stored children that no second read confirmed gone. */
  childrenWithheld: ChildrenWithheld[];
}

export interface DetailStageArgs<R, C> {
  db: Queryable;
  client: C;
  stream: StreamDefinition<R, C>;
  scope: Scope;
  window: Window;
  ctx: RowContext;
  fetched: FetchResult<R>;
  after?: CommitBeside | undefined;
  /** Told after each call by key (order details), for `sync --once`'s progress. */
  onProgress?: ((progress: FetchProgress) => void) | undefined;
  /** How children a detail answer omits are confirmed (FULFILLMENT_VANISH_CONFIRM_*). */
  settings: VanishConfirmSettings;
  /** Throws once the run's deadline has passed (no further confirming read). */
  checkDeadline?: (() => void) | undefined;
}

/** What a batch of detail calls yields besides the records. */
interface DetailCalls<R> {
  repaired: RejectedRecord[];
  failures: DetailFailure[];
  apiCalls: number;
  /** The records a detail call answered, by detail key, with the list record each replaced, if any. */
  answered: Map<string, Incoming<R> | undefined>;
}

function noCalls<R>(): DetailCalls<R> {
  return { repaired: [], failures: [], apiCalls: 0, answered: new Map() };
}

const NO_REQUESTS: DueRequests = { requests: [], readAt: new Date(0).toISOString() };

/** Runs a fetched window through the detail stage; see the file comment. */
export async function detailWindow<R, C>(args: DetailStageArgs<R, C>): Promise<DetailedWindow<R>> {
  const { stream, fetched } = args;
  const spec = stream.details;
  const reading = {
    db: args.db,
    stream: stream as StreamDefinition<R, unknown>,
    ctx: args.ctx,
    after: args.after,
  };
  if (!spec) {
    const read = await readWindow({ ...reading, fetched });
    const none = { failures: [], apiCalls: 0, fetchedByKey: 0, gone: [], childrenWithheld: [] };
    return { ...read, due: NO_REQUESTS, ...none };
  }
  const due = await dueDetailRequests(args.db, stream.name, args.scope.id, args.ctx.now, spec.limit);
  const keyed = await fetchByKey(args, spec, due);
  const read = await readWindow({
    ...reading,
    fetched: {
      ...fetched,
      records: [...fetched.records, ...keyed.records],
      repaired: [...(fetched.repaired ?? []), ...keyed.repaired],
    },
  });
  const dueHere = await dueOfListed(args, spec, read.incoming, due);
  const listed = await fetchListed(args, spec, read, dueHere);
  const checked = await confirmChildren({
    ...args,
    spec,
    shape: read.shape,
    storedByKey: read.storedByKey,
    incoming: listed.incoming,
    answered: new Map([...keyed.answered, ...listed.answered]),
  });
  return {
    ...read,
    incoming: checked.incoming,
    rejected: [...read.rejected, ...listed.rejected],
    repaired: [...read.repaired, ...listed.repaired],
    due: dueHere,
    failures: [...keyed.failures, ...listed.failures],
    apiCalls: keyed.apiCalls + listed.apiCalls + checked.apiCalls,
    fetchedByKey: keyed.records.length,
    gone: goneRequests(args, spec, due),
    childrenWithheld: checked.withheld,
  };
}

/**
 * The records the window did not list but wants by key: its due requests where the stream follows
 * them (`followDue`), and the keys its fetch named (`byKey`) whose request is not backing off or
 * quarantined.
 */
async function fetchByKey<R, C>(
  args: DetailStageArgs<R, C>,
  spec: DetailSpec<R, C>,
  due: DueRequests,
): Promise<DetailCalls<R> & { records: R[] }> {
  const { fetched, stream, scope, client } = args;
  const out = { records: [] as R[], ...noCalls<R>() };
  const listed = new Set(fetched.records.map((r) => spec.key(r)));
  const named = (fetched.byKey ?? []).filter((k) => !listed.has(k));
  const held = await heldBackKeys(args.db, stream.name, scope.id, named, args.ctx.now);
  const followed = spec.followDue?.(args.window) ? due.requests.map((d) => d.recordKey) : [];
  const keys = [...new Set([...named.filter((k) => !held.has(k)), ...followed])].filter(
    (k) => !listed.has(k),
  );
  for (const key of keys) {
    const answer = await spec.fetch({ client, scope, key, listed: undefined });
    out.apiCalls += 1;
    args.onProgress?.({ done: out.apiCalls, total: keys.length });
    if ('failure' in answer) out.failures.push({ recordKey: key, reason: answer.failure });
    else {
      out.records.push(answer.record);
      out.repaired.push(...(answer.repaired ?? []));
      out.answered.set(key, undefined);
    }
  }
  return out;
}

/** The due requests of records a window that lists every record did not list (see `listsAll`). */
function goneRequests<R, C>(
  args: DetailStageArgs<R, C>,
  spec: DetailSpec<R, C>,
  due: DueRequests,
): DetailRequest[] {
  // A rejected row may be any record, the due one too: then nothing is known gone. Nor is anything
  // when the listing lost much of what is stored and no further read confirmed it (confirmShrink.ts).
  if (!spec.listsAll?.(args.window) || args.fetched.rejected.length > 0) return [];
  if (args.fetched.shrink?.withheld) return [];
  const listed = new Set(args.fetched.records.map((r) => spec.key(r)));
  return due.requests.filter((d) => !listed.has(d.recordKey));
}

/**
 * The due requests a window serves: those of the due list (at most the limit, oldest first), and
 * those due for any record it lists without its detail, so requests of records no listing returns
 * (a delisted product) never crowd out the listed ones.
 */
async function dueOfListed<R, C>(
  args: DetailStageArgs<R, C>,
  spec: DetailSpec<R, C>,
  incoming: readonly Incoming<R>[],
  due: DueRequests,
): Promise<DueRequests> {
  const known = new Set(due.requests.map((d) => d.recordKey));
  const keys = new Set<string>();
  for (const i of incoming) {
    const key = spec.key(i.record);
    if (!spec.has(i.record) && !known.has(key)) keys.add(key);
  }
  if (keys.size === 0) return due;
  const more = await dueDetailRequests(args.db, args.stream.name, args.scope.id, args.ctx.now, keys.size, [
    ...keys,
  ]);
  // The earlier read time: a record stored with its detail serves only requests not named since.
  return { requests: [...due.requests, ...more.requests], readAt: due.readAt };
}

/**
 * Detail calls for listed records that need them: changed list rows, records `wanted` (a daily
 * refresh), records with a due request. A failed detail leaves the list record as it is (its list
 * columns still land; its stored children and detail columns are untouched).
 */
async function fetchListed<R, C>(
  args: DetailStageArgs<R, C>,
  spec: DetailSpec<R, C>,
  read: WindowRead<R>,
  due: DueRequests,
): Promise<DetailCalls<R> & { incoming: Incoming<R>[]; rejected: RejectedRecord[] }> {
  const { stream, client, scope, window, ctx } = args;
  const { shape, storedByKey } = read;
  const out = { incoming: [] as Incoming<R>[], rejected: [] as RejectedRecord[], ...noCalls<R>() };
  const dueKeys = new Set(due.requests.map((d) => d.recordKey));
  const needs = (i: Incoming<R>) => {
    if (spec.has(i.record)) return false;
    const stored = storedByKey.get(i.key);
    if (!stored || !rowsEqual(stored, i.row, shape)) return true;
    return spec.wanted?.(i.record, window) === true || dueKeys.has(spec.key(i.record));
  };
  for (const item of read.incoming) {
    if (!needs(item)) {
      out.incoming.push(item);
      continue;
    }
    const key = spec.key(item.record);
    const answer = await spec.fetch({ client, scope, key, listed: item.record });
    out.apiCalls += 1;
    if ('failure' in answer) {
      out.failures.push({ recordKey: key, reason: answer.failure });
      out.incoming.push(item);
      continue;
    }
    out.repaired.push(...(answer.repaired ?? []));
    try {
      const row = withContentHash(stream.entity.row(answer.record, ctx), shape);
      const problems = keyProblems(row, shape);
      if (problems.length > 0) throw new Error(problems.join('; '));
      out.incoming.push({ record: answer.record, row, key: keyOf(row, shape) });
      out.answered.set(key, item);
    } catch (error) {
      out.rejected.push({
        index: -1,
        reason: `detail could not be mapped: ${(error as Error).message}`,
        raw: answer.record,
        key: keyText(item.row, stream.entity.key),
      });
      out.incoming.push(item);
    }
  }
  return out;
}

/**
 * The detail requests a window answers: every record stored with its detail (`has`) and every
 * record quarantined (asking again cannot help until it changes). Requests named again after the
 * due list was read survive (their `requested_at` is newer than the one read).
 */
export function servedRequests<R>(
  spec: DetailSpec<R, unknown> | undefined,
  incoming: readonly Incoming<R>[],
  rejected: readonly RejectedRecord[],
  due: DueRequests,
): DetailRequest[] {
  if (!spec) return [];
  const keys = new Set<string>();
  for (const i of incoming) if (spec.has(i.record)) keys.add(spec.key(i.record));
  for (const r of rejected) {
    if (r.raw === undefined || r.raw === null) continue;
    try {
      const key: unknown = spec.key(r.raw as R);
      if (typeof key === 'string' && key.length > 0) keys.add(key);
    } catch {
      // A record too broken to name its key cannot answer a request.
    }
  }
  const byKey = new Map(due.requests.map((d) => [d.recordKey, d]));
  return [...keys].map(
    (recordKey) => byKey.get(recordKey) ?? { recordKey, requestedAt: due.readAt, attempts: 0 },
  );
}
