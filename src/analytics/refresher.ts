import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { StreamName } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import { type RefreshOutcome, refreshRelation } from './refresh.ts';
import { MAINTAINED, REFRESH_INTERVAL_MS } from './views.ts';

/** What the worker tells the refresher after each run. */
export interface RunChanges {
  stream: StreamName;
  inserted: number;
  updated: number;
}

export interface RefresherOptions {
  logger: Pick<Logger, 'info' | 'warn'>;
  /** A table is refreshed at most this long after its last refresh ended (default REFRESH_INTERVAL_MS). */
  intervalMs?: number;
}

/** One table's standing, from sync.analytics_refreshes and the queue (one query per planning). */
interface Standing {
  relation: string;
  /** Milliseconds until its next refresh is due (its interval counted from its last refresh's end). */
  dueInMs: number;
  /** A rebuild is asked for: it goes to the rebuild lane. */
  rebuild: boolean;
}

/**
 * The worker's analytics refresher. Each maintained table has its own cadence: it is refreshed
 * `intervalMs` after its last refresh ended (or at once while a backlog is left), most overdue
 * first. A refresh takes in a bounded batch, so no table's refresh waits long behind another's; a
 * rebuild (hours of history at once) runs in a lane of its own, on a second connection. Other
 * worker processes share the cadence through sync.analytics_refreshes and skip a table one of
 * them is refreshing. The synced tables' triggers queue the changes; the refresher only wakes up.
 */
export class AnalyticsRefresher {
  private closed = false;
  private wake: (() => void) | undefined;
  private rebuilding: Promise<void> | undefined;
  /** Tables found busy or failing: left alone until then (ms since the epoch). */
  private readonly notBefore = new Map<string, number>();
  private readonly loop: Promise<void>;
  private readonly intervalMs: number;

  constructor(
    private readonly pool: Pool,
    private readonly options: RefresherOptions,
  ) {
    this.intervalMs = options.intervalMs ?? REFRESH_INTERVAL_MS;
    this.loop = this.run();
  }

  /** After a run: wakes the refresher (a table due meanwhile is refreshed now). */
  async afterRun(_db: Queryable, result: RunChanges): Promise<void> {
    if (result.inserted + result.updated > 0) this.kick();
  }

  /** Wakes the refresher to look at what is due. */
  kick(): void {
    this.wake?.();
  }

  /** Starts no more refreshes and waits for the running ones (they commit or roll back). */
  async close(): Promise<void> {
    this.closed = true;
    this.kick();
    await this.loop;
    await this.rebuilding;
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      try {
        const waitMs = await this.step();
        if (waitMs > 0) await this.sleep(waitMs);
      } catch (error) {
        this.options.logger.warn({ error: messageOf(error) }, 'analytics refresher could not plan');
        await this.sleep(this.intervalMs);
      }
    }
  }

  /** Refreshes the most overdue table, starts a rebuild; answers how long nothing is due. */
  private async step(): Promise<number> {
    const now = Date.now();
    const standings = (await this.standings()).filter((s) => (this.notBefore.get(s.relation) ?? 0) <= now);
    const rebuild = standings.find((s) => s.rebuild);
    if (rebuild && !this.rebuilding) {
      this.rebuilding = this.refresh(rebuild.relation).then(() => {
        this.rebuilding = undefined;
        this.kick();
      });
    }
    const due = standings.filter((s) => !s.rebuild && s.dueInMs <= 0).sort((a, b) => a.dueInMs - b.dueInMs);
    if (due[0]) {
      await this.refresh(due[0].relation);
      return 0;
    }
    const next = Math.min(this.intervalMs, ...standings.filter((s) => !s.rebuild).map((s) => s.dueInMs));
    return Math.max(next, 50);
  }

  private async refresh(relation: string): Promise<RefreshOutcome> {
    const outcome = await refreshRelation(this.pool, relation, { logger: this.options.logger });
    if (outcome.status === 'busy' || outcome.status === 'failed') {
      this.notBefore.set(relation, Date.now() + this.intervalMs);
    }
    return outcome;
  }

  private async standings(): Promise<Standing[]> {
    const { rows } = await this.pool.query<{ relation: string; due_in_ms: number | null; rebuild: boolean }>(
      `SELECT m.relation,
              CASE WHEN r.pending_changes > 0 THEN 0
                   ELSE extract(epoch FROM greatest(r.last_refresh_at, r.last_error_at)
                                           + make_interval(secs => $2::double precision / 1000)
                                           - clock_timestamp()) * 1000 END::double precision AS due_in_ms,
              EXISTS (SELECT 1 FROM sync.analytics_changes c WHERE c.relation = m.relation AND c.key IS NULL) AS rebuild
         FROM unnest($1::text[]) WITH ORDINALITY m (relation, n)
         LEFT JOIN sync.analytics_refreshes r ON r.relation = m.relation
        ORDER BY m.n`,
      [MAINTAINED, this.intervalMs],
    );
    return rows.map((r) => ({ relation: r.relation, dueInMs: r.due_in_ms ?? 0, rebuild: r.rebuild }));
  }

  private sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
