import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';
import type { Scope } from './types.ts';

/**
 * Exclusivity of a stream+scope run without pinning a connection: a lease row in
 * `sync.stream_leases` with an expiry and a fencing token. A run takes it before reading the
 * cursor and renews it while it fetches (each renewal is one short statement); its write
 * transaction first locks the lease row and checks that the fence is still its own, so a run that
 * lost its lease (paused past the expiry, cut off from the database) can never commit over data a
 * newer holder wrote. A crashed holder frees the lease when it expires.
 */

/** Raised in a write transaction whose run no longer holds the lease. */
export class LeaseLostError extends Error {
  constructor(stream: string, scope: Scope) {
    super(
      `another run took over ${stream} for ${scope.id} (this run's lease expired): nothing was written; the other run continues`,
    );
    this.name = 'LeaseLostError';
  }
}

/** A held lease. `release` is idempotent. */
export interface StreamLease {
  stream: string;
  scope: Scope;
  holder: string;
  fence: number;
  /** True once a renewal found the lease taken by another run. */
  lost(): boolean;
  release(): Promise<void>;
}

export interface LeaseOptions {
  /** 'wait' (default): poll until the lease is free; 'skip': answer undefined when held. */
  mode?: 'wait' | 'skip';
  /** How long a lease lasts without renewal (default 30 s): a crashed run blocks others this long. */
  ttlMs?: number;
  /** Longest wait in 'wait' mode before giving up with an error (default: ttl + 5 min). */
  maxWaitMs?: number;
  /** Called once when 'wait' mode finds the lease held and starts waiting. */
  onWait?: () => void;
}

export const DEFAULT_LEASE_TTL_MS = 30_000;

/** A pool-like source of short queries (`pg.Pool.query`): every statement takes and returns a client. */
type Db = Queryable;

/** Takes the lease of a stream and scope if it is free or expired; answers its fence, else undefined. */
async function tryAcquire(db: Db, stream: string, scope: Scope, holder: string, ttlMs: number) {
  const res = await db.query<{ fence: string }>(
    `INSERT INTO sync.stream_leases AS l (stream, scope, holder, fence, expires_at)
     VALUES ($1, $2, $3, 1, clock_timestamp() + $4 * interval '1 millisecond')
     ON CONFLICT (stream, scope) DO UPDATE SET holder = EXCLUDED.holder, fence = l.fence + 1,
       expires_at = EXCLUDED.expires_at, acquired_at = clock_timestamp()
     WHERE l.expires_at < clock_timestamp()
     RETURNING fence`,
    [stream, scope.id, holder, ttlMs],
  );
  const fence = res.rows[0]?.fence;
  return fence === undefined ? undefined : Number(fence);
}

/**
 * Takes the lease of one stream and scope and keeps renewing it until released. 'skip' answers
 * undefined when another run holds it; 'wait' polls (with jitter) until it is free.
 */
export async function acquireStreamLease(
  db: Db,
  stream: string,
  scope: Scope,
  options: LeaseOptions = {},
): Promise<StreamLease | undefined> {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const holder = randomUUID();
  const deadline = Date.now() + (options.maxWaitMs ?? ttlMs + 300_000);
  let fence = await tryAcquire(db, stream, scope, holder, ttlMs);
  if (fence === undefined && options.mode !== 'skip') options.onWait?.();
  while (fence === undefined) {
    if (options.mode === 'skip') return undefined;
    if (Date.now() > deadline) {
      throw new Error(
        `${stream} for ${scope.id} stayed busy: another run held its lease for too long (sync.stream_leases)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.floor(Math.random() * 150)));
    fence = await tryAcquire(db, stream, scope, holder, ttlMs);
  }
  return holdLease(db, { stream, scope, holder, fence, ttlMs });
}

function holdLease(
  db: Db,
  held: { stream: string; scope: Scope; holder: string; fence: number; ttlMs: number },
): StreamLease {
  const { stream, scope, holder, fence, ttlMs } = held;
  let lost = false;
  let released = false;
  const renew = async () => {
    const res = await db.query(
      `UPDATE sync.stream_leases SET expires_at = clock_timestamp() + $5 * interval '1 millisecond'
        WHERE stream = $1 AND scope = $2 AND holder = $3 AND fence = $4`,
      [stream, scope.id, holder, fence, ttlMs],
    );
    if (res.rowCount === 0) lost = true;
  };
  // A failed renewal (database briefly away) is not a loss: the fence check at commit decides.
  const timer = setInterval(
    () => {
      if (!lost && !released) renew().catch(() => undefined);
    },
    Math.max(100, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  return {
    stream,
    scope,
    holder,
    fence,
    lost: () => lost,
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      // Expire rather than delete: the fence must keep growing, or a stale holder could match a
      // new lease that restarted at 1.
      await db
        .query(
          `UPDATE sync.stream_leases SET expires_at = clock_timestamp() - interval '1 millisecond'
            WHERE stream = $1 AND scope = $2 AND holder = $3 AND fence = $4`,
          [stream, scope.id, holder, fence],
        )
        .catch(() => undefined);
    },
  };
}

/**
 * In the write transaction, before anything is written: locks the lease row (a new holder cannot
 * take it until this transaction ends) and throws `LeaseLostError` unless it is still this run's.
 */
export async function assertLeaseHeld(tx: Queryable, lease: StreamLease): Promise<void> {
  const res = await tx.query<{ holder: string; fence: string }>(
    'SELECT holder, fence FROM sync.stream_leases WHERE stream = $1 AND scope = $2 FOR UPDATE',
    [lease.stream, lease.scope.id],
  );
  const row = res.rows[0];
  if (!row || row.holder !== lease.holder || Number(row.fence) !== lease.fence)
    throw new LeaseLostError(lease.stream, lease.scope);
}
