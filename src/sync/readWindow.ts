import type { Queryable } from '../db/queryable.ts';
import { shapeOf, tableInfo } from './columns.ts';
import { keyOf, type TableShape } from './diff.ts';
import { buildIncomingInSlices, type Incoming, rejectedKeyText } from './incoming.ts';
import { loadByKeys } from './store.ts';
import type { FetchResult, RejectedRecord, Row, RowContext, StreamDefinition } from './types.ts';

/**
 * A fetched window's records as parent rows beside the rows stored under their keys: short reads on
 * the pool (no transaction, no held client), no upstream call.
 */

/** The previous window's commit, still running, and the keys it writes (windowPipeline.ts). */
export interface CommitBeside {
  committed: Promise<unknown>;
  keys: ReadonlySet<string>;
}

/** A window's records with the stored rows of their keys. */
export interface WindowRead<R> {
  shape: TableShape;
  incoming: Incoming<R>[];
  rejected: RejectedRecord[];
  repaired: RejectedRecord[];
  storedByKey: Map<string, Row>;
  /**
   * With a content hash, the stored rows are read without `raw` (the hash tells the unchanged
   * apart); the columns read, so the updated rows' records can be read afterwards.
   */
  withoutRaw: string[] | undefined;
  /** Keys (see `keyOf`) of the window's records: what its commit may write. */
  keys: ReadonlySet<string>;
}

/**
 * Builds the parent rows of `fetched` and reads the stored rows of their keys. With `after`, the
 * stored rows are read only once that commit has settled if this window holds any key it writes;
 * with none, it cannot change what is read here.
 */
export async function readWindow<R>(args: {
  db: Queryable;
  stream: StreamDefinition<R, unknown>;
  ctx: RowContext;
  fetched: FetchResult<R>;
  after?: CommitBeside | undefined;
}): Promise<WindowRead<R>> {
  const { db, stream, ctx, fetched, after } = args;
  const entity = stream.entity;
  const shape = shapeOf(entity.table, entity.key);
  const built = await buildIncomingInSlices(fetched.records, entity, shape, ctx);
  const named = (r: RejectedRecord) =>
    r.key !== undefined ? r : { ...r, key: rejectedKeyText(entity, r.raw, ctx) };
  const incoming = built.incoming;
  const keys = new Set(incoming.map((i) => i.key));
  if (after && incoming.some((i) => after.keys.has(i.key))) await after.committed;

  const withoutRaw = shape.hashColumn
    ? [...tableInfo(entity.table).types.keys()].filter((c) => c !== 'raw')
    : undefined;
  const stored = await loadByKeys(
    db,
    entity.table,
    entity.key,
    incoming.map((i) => i.row),
    withoutRaw,
  );
  const storedByKey = new Map<string, Row>();
  for (const row of stored) storedByKey.set(keyOf(row, shape), row);
  return {
    shape,
    incoming,
    rejected: [...fetched.rejected.map(named), ...built.rejected],
    repaired: (fetched.repaired ?? []).map(named),
    storedByKey,
    withoutRaw,
    keys,
  };
}
