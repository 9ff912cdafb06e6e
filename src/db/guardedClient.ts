import pg from 'pg';
import type { SessionLimits } from './limits.ts';

/** A query whose answer did not come within the client-side timeout; its connection was dropped. */
export class QueryTimeoutError extends Error {
  override name = 'QueryTimeoutError';
}

/** Postgres's code for a statement cancelled (by statement_timeout here). */
const QUERY_CANCELED = '57014';

/** The parts of pg.Client's connection state its types leave out. */
interface PgInternals {
  _ended?: boolean;
  connection: { stream: { destroy(): void }; once(event: 'end', listener: () => void): void };
}

type Callback = (error: Error | null | undefined, result?: unknown) => void;

/** What a pool hands its GuardedClients (besides pg's own options). */
export interface GuardedConfig {
  /** The pool's limits (statement_timeout and keepalive are set from them by createDatabase). */
  limits?: SessionLimits;
  /** The limits `useLimits('long')` switches to. */
  longLimits?: SessionLimits;
}

/** Switches a pooled client to the long limits (or back) for the rest of its transaction; see GuardedClient. */
export async function useLimits(client: pg.ClientBase, kind: 'standard' | 'long'): Promise<void> {
  if (client instanceof GuardedClient) await client.useLimits(kind);
}

/**
 * The pools' client (pg.Pool's `Client` option): sessions open with the pool's statement_timeout
 * and TCP keepalive, and every query has a client-side answer timeout. A query whose answer does not
 * come in time fails with a QueryTimeoutError naming the setting, and its connection is destroyed,
 * so the pool never hands it out again (a connection whose answer was lost cannot be trusted with
 * the next query). A statement Postgres cancelled for its timeout says which setting decided.
 * Streamed queries (COPY) are left to the statement timeout and keepalive: a client timer cannot
 * tell a slow stream from a dead one.
 */
export class GuardedClient extends pg.Client {
  private readonly standard: SessionLimits | undefined;
  private readonly long: SessionLimits | undefined;
  private limits: SessionLimits | undefined;
  private abandonedAfterMs: number | undefined;

  constructor(config: pg.ClientConfig & GuardedConfig = {}) {
    super(config);
    this.standard = config.limits;
    this.long = config.longLimits;
    this.limits = config.limits;
    // A connection dropped while checked out emits 'error' with no pool listener attached, which
    // would end the process; its queries get the error anyway.
    this.on('error', () => undefined);
  }

  /**
   * Switches the session to the long limits (or back) for the rest of the caller's transaction:
   * SET LOCAL statement_timeout, and the client's own timeout to match. For work that is long by
   * nature on a pool of ordinary work (a sync's COPY).
   */
  async useLimits(kind: 'standard' | 'long'): Promise<void> {
    const limits = kind === 'long' ? this.long : this.standard;
    if (!limits || limits === this.limits) return;
    await this.query(`SET LOCAL statement_timeout = ${Math.round(limits.statementTimeoutMs)}`);
    this.limits = limits;
  }

  /**
   * Opens the session with the same answer timeout as a query: a handshake whose answers are lost
   * (a path that dies while the pool opens a connection) would otherwise wait forever, and with it
   * the pool.connect() that asked for the connection (pg-pool has no timeout of its own unless
   * connectionTimeoutMillis is set, and that one also bounds the wait for a busy pool).
   */
  // biome-ignore lint/suspicious/noExplicitAny: pg's connect has a callback and a promise form; this passes both through.
  override connect(...args: any[]): any {
    const callback = args[0] as ((error: Error | null | undefined) => void) | undefined;
    const settle = this.answerTimer(this.limits);
    if (callback) {
      super.connect((error: Error | null) => callback(settle(error)));
      return undefined;
    }
    return settledBy(super.connect(), settle);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes every form through.
  override query(...args: any[]): any {
    const limits = this.limits;
    const first = args[0] as { submit?: unknown } | undefined;
    if (first && typeof first.submit === 'function') return super.query(...(args as [never]));
    const settle = this.answerTimer(limits);
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const callback = last as Callback;
      args[args.length - 1] = (error: Error | null | undefined, result?: unknown) =>
        callback(settle(error), result);
      return super.query(...(args as [never]));
    }
    return settledBy(super.query(...(args as [never])) as Promise<unknown>, settle);
  }

  /**
   * Ends the session with pg's goodbye, but waits no longer than an answer for the connection to
   * close: on a dead path the peer's close never comes, and the pool's end (or a LISTEN
   * connection's close) would wait until TCP keepalive gives up, many minutes later.
   */
  // biome-ignore lint/suspicious/noExplicitAny: pg's end has a callback and a promise form; this passes both through.
  override end(...args: any[]): any {
    const ms = this.limits?.queryTimeoutMs ?? 0;
    const internals = this as unknown as PgInternals;
    if (ms > 0 && !internals._ended) {
      const timer = setTimeout(() => internals.connection.stream.destroy(), ms);
      timer.unref();
      internals.connection.once('end', () => clearTimeout(timer));
    }
    return super.end(...(args as [never]));
  }

  /**
   * Starts the answer timeout of one exchange (the handshake, a query); the function it returns
   * stops it when the answer comes and turns an error into the one the caller sees.
   */
  private answerTimer(limits: SessionLimits | undefined): (error?: Error | null) => Error | null | undefined {
    const ms = limits?.queryTimeoutMs ?? 0;
    const timer = ms > 0 ? setTimeout(() => this.abandon(ms), ms) : undefined;
    return (error) => {
      clearTimeout(timer);
      return error ? this.explain(error, limits) : error;
    };
  }

  /** Gives up on the answer: the connection goes, failing its queries, and is never reused. */
  private abandon(ms: number): void {
    this.abandonedAfterMs = ms;
    (this as unknown as PgInternals).connection.stream.destroy();
  }

  /** The error a caller sees: which timeout ran out, and which setting decides it. */
  private explain(error: Error, limits: SessionLimits | undefined): Error {
    if (this.abandonedAfterMs !== undefined) {
      return new QueryTimeoutError(
        `no answer from Postgres within ${limits?.querySetting ?? 'the query timeout'} (${this.abandonedAfterMs} ms); the connection was dropped`,
        { cause: error },
      );
    }
    const code = (error as { code?: unknown }).code;
    if (code === QUERY_CANCELED && limits && /statement timeout/.test(error.message)) {
      error.message = `Postgres cancelled a statement that ran past ${limits.statementSetting} (${limits.statementTimeoutMs} ms): ${error.message}`;
    }
    return error;
  }
}

/** The promise form of an answer: it clears the answer's timer, and an error comes out explained. */
function settledBy<T>(
  answer: Promise<T>,
  settle: (error?: Error | null) => Error | null | undefined,
): Promise<T> {
  return answer.then(
    (value) => {
      settle();
      return value;
    },
    (error: Error) => {
      throw settle(error);
    },
  );
}
