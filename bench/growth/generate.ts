/**
 * A simulated deployment's bookkeeping, written straight into Postgres by set-based INSERTs: what
 * `pairs` supplier+account pairs write over [from, to) at the default cadences. Volumes that are
 * not cadences (events, deliveries, rejections) are the bench's parameters, stated in the results.
 */
import type { Pool } from 'pg';
import { STREAM_DEFAULTS } from '../../src/config/streamDefaults.ts';
import type { StreamName } from '../../src/config/types.ts';

/** What one pair adds per day besides its runs. */
export interface Volumes {
  /** Events written per pair per day (all delivered to every endpoint). */
  eventsPerDay: number;
  /** Bytes of each event's data payload ({current, previous, changes}). */
  eventBytes: number;
  /** Webhook endpoints subscribed to everything: a delivery state and an attempt per event each. */
  endpoints: number;
  /** Share of deliveries needing a second attempt (a failed one first). */
  retryShare: number;
  /** New rejected-record problems per pair per day. */
  rejectionsPerDay: number;
  /** Detail requests quarantined per pair per day. */
  quarantinesPerDay: number;
  /** Backfill windows finished per pair per day (a backfill of a month now and then). */
  backfillWindowsPerDay: number;
}

const SUPPLIER_STREAMS: StreamName[] = [
  'products',
  'inventory',
  'inventory_activity',
  'transfers_in',
  'transfers_out',
];
const ACCOUNT_STREAMS: StreamName[] = ['shipments', 'returns', 'invoices'];

/** Creates the pairs' cursors (one per scheduled stream and scope) and the endpoints. */
export async function setUpDeployment(pool: Pool, pairs: number, endpoints: number): Promise<number> {
  await pool.query(`CREATE TABLE public.bench_keys (stream text, scope text, cadence_minutes int)`);
  const keys: Array<[string, string, number]> = [];
  for (let p = 0; p < pairs; p++) {
    for (const s of SUPPLIER_STREAMS) keys.push([s, `SUP${p}`, STREAM_DEFAULTS[s].cadenceMinutes]);
    for (const s of ACCOUNT_STREAMS) keys.push([s, `ACC${p}`, STREAM_DEFAULTS[s].cadenceMinutes]);
  }
  await pool.query(
    `INSERT INTO public.bench_keys SELECT * FROM jsonb_to_recordset($1::jsonb) AS k(stream text, scope text, cadence_minutes int)`,
    [JSON.stringify(keys.map(([stream, scope, cadence_minutes]) => ({ stream, scope, cadence_minutes })))],
  );
  await pool.query(`INSERT INTO sync.cursors (stream, scope) SELECT stream, scope FROM public.bench_keys`);
  for (let e = 0; e < endpoints; e++) {
    await pool.query(
      `INSERT INTO sync.webhook_endpoints (id, url, secret) VALUES ($1, 'https://hooks.example.com/x', 'whsec_x')`,
      [`ep_bench_${e}`],
    );
  }
  const runsPerDay = keys.reduce((sum, [, , cadence]) => sum + 1440 / cadence, 0) / pairs;
  return runsPerDay;
}

/** Rows written per table over a period, and the seconds each table's statements took. */
export interface Written {
  rows: Record<string, number>;
  seconds: Record<string, number>;
}

type Run = (label: string, sql: string, params: unknown[]) => Promise<void>;

/**
 * Runs `work` on a client of its own whose session skips foreign-key checks and triggers
 * (`session_replication_role = replica`): the generated rows are consistent by construction, and
 * checking each one's keys was a third of the generation's time. The pruner and the measured
 * window commits run on other sessions, with every check and cascade in place.
 */
async function onGeneratingClient(pool: Pool, written: Written, work: (run: Run) => Promise<void>) {
  const client = await pool.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await work(async (label, sql, params) => {
      const started = performance.now();
      const res = await client.query(sql, params);
      written.rows[label] = (written.rows[label] ?? 0) + (res.rowCount ?? 0);
      const seconds = (performance.now() - started) / 1000;
      written.seconds[label] = Math.round(((written.seconds[label] ?? 0) + seconds) * 10) / 10;
    });
  } finally {
    await client.query(`RESET session_replication_role`).catch(() => undefined);
    client.release();
  }
}

/**
 * Writes what the deployment does over [from, to): runs at the cadences, and the per-day volumes.
 * The runs and the rest go on two sessions at once (they share no rows), as a deployment's streams
 * and its relay write side by side.
 */
export async function writePeriod(
  pool: Pool,
  from: Date,
  to: Date,
  pairs: number,
  v: Volumes,
): Promise<Written> {
  const written: Written = { rows: {}, seconds: {} };
  await Promise.all([
    onGeneratingClient(pool, written, (run) => writeRuns(run, from, to)),
    onGeneratingClient(pool, written, (run) => writeVolumes(run, from, to, pairs, v)),
  ]);
  return written;
}

async function writeRuns(run: Run, from: Date, to: Date): Promise<void> {
  // One row per window run; the runs of a run share its lease fence. details on a tenth of them.
  await run(
    'sync.runs',
    `INSERT INTO sync.runs (stream, scope, mode, lease_fence, window_start, window_end, started_at, finished_at, status,
        fetched, inserted, updated, unchanged, events, api_calls, details)
     SELECT k.stream, k.scope, 'incremental', (extract(epoch FROM t) / 60)::bigint, t - make_interval(mins => k.cadence_minutes), t,
            t, t + interval '2 seconds', CASE WHEN random() < 0.01 THEN 'partial' ELSE 'succeeded' END,
            (random() * 50)::int, (random() * 5)::int, (random() * 10)::int, (random() * 40)::int, (random() * 5)::int, 1,
            CASE WHEN random() < 0.1 THEN jsonb_build_object('windowSize', jsonb_build_object('size', 31, 'reason', 'grew')) END
       FROM public.bench_keys k,
            generate_series($1::timestamptz + make_interval(secs => (hashtext(k.stream || k.scope) & 1023) % (k.cadence_minutes * 60)),
                            $2::timestamptz - interval '1 millisecond', make_interval(mins => k.cadence_minutes)) t`,
    [from, to],
  );
  // Cursors name their last run, as the engine leaves them.
  await run(
    'sync.cursors (updated)',
    `UPDATE sync.cursors c SET last_run_id = r.id, last_success_at = r.finished_at, position_at = r.window_end
       FROM (SELECT DISTINCT ON (stream, scope) stream, scope, id, finished_at, window_end FROM sync.runs
              WHERE started_at >= $1 ORDER BY stream, scope, started_at DESC) r
      WHERE c.stream = r.stream AND c.scope = r.scope`,
    [from],
  );
}

async function writeVolumes(run: Run, from: Date, to: Date, pairs: number, v: Volumes): Promise<void> {
  const days = (to.getTime() - from.getTime()) / 86_400_000;
  const perPair = (perDay: number) => Math.round(perDay * days);
  const events = perPair(v.eventsPerDay);
  // Events spread evenly over the period, dispatched a second after detection.
  await run(
    'sync.events',
    `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, stream, scope, dispatched_at)
     SELECT 'ev_' || md5($1::text || p || '.' || i), 'shipment.tracking_event', 'shipment', 'C' || p || '-' || (i / 5),
            at, at, jsonb_build_object('current', jsonb_build_object('pad', repeat('x', $5::int)), 'previous', null, 'changes', '[]'::jsonb),
            'shipments', 'ACC' || p, at + interval '1 second'
       FROM generate_series(0, $3::int - 1) p, generate_series(0, $4::int - 1) i,
            LATERAL (SELECT $1::timestamptz + ($2::timestamptz - $1::timestamptz) * ((i + 0.5) / $4::int) AS at) x`,
    [from, to, pairs, events, Math.max(0, v.eventBytes - 60)],
  );
  for (let e = 0; e < v.endpoints; e++) {
    await run(
      'sync.webhook_delivery_states',
      `INSERT INTO sync.webhook_delivery_states (endpoint_id, event_id, series, status, attempts_made, created_at, updated_at, finished_at)
       SELECT $3, id, '', 'succeeded', 1, detected_at, detected_at, detected_at + interval '2 seconds'
         FROM sync.events WHERE detected_at >= $1 AND detected_at < $2`,
      [from, to, `ep_bench_${e}`],
    );
    await run(
      'sync.webhook_deliveries',
      `INSERT INTO sync.webhook_deliveries (endpoint_id, event_id, attempt, status, response_code, duration_ms, error, response_body, attempted_at, created_at)
       SELECT $3, e.id, a.n, CASE WHEN a.n = 1 AND r THEN 'failed' ELSE 'succeeded' END,
              CASE WHEN a.n = 1 AND r THEN 503 ELSE 200 END, 120, CASE WHEN a.n = 1 AND r THEN 'HTTP 503' END,
              CASE WHEN a.n = 1 AND r THEN 'upstream unavailable' ELSE 'ok' END,
              e.detected_at + make_interval(secs => a.n * 5), e.detected_at + make_interval(secs => a.n * 5)
         FROM (SELECT id, detected_at, random() < $4 AS r FROM sync.events WHERE detected_at >= $1 AND detected_at < $2) e,
              LATERAL generate_series(1, CASE WHEN e.r THEN 2 ELSE 1 END) a(n)`,
      [from, to, `ep_bench_${e}`, v.retryShare],
    );
  }
  await run(
    'sync.rejected_records',
    `INSERT INTO sync.rejected_records (stream, scope, kind, record_key, reason, raw, fingerprint, rejected_at, last_seen_at)
     SELECT 'shipments', 'ACC' || p, 'quarantined', 'C' || i, 'trackingEvents[0].eventDate: not a date', 
            jsonb_build_object('containerId', 'C' || i, 'pad', repeat('y', 400)), md5($1::text || p || '.' || i), at, at
       FROM generate_series(0, $3::int - 1) p, generate_series(0, $4::int - 1) i,
            LATERAL (SELECT $1::timestamptz + ($2::timestamptz - $1::timestamptz) * ((i + 0.5) / $4::int) AS at) x`,
    [from, to, pairs, perPair(v.rejectionsPerDay)],
  );
  await run(
    'sync.detail_requests',
    `INSERT INTO sync.detail_requests (stream, scope, record_key, reason, requested_at, attempts, last_error, quarantined_at)
     SELECT 'orders', 'ACC' || p, 'W-' || md5($1::text || i), 'shipment', at, 10, 'HTTP 500', at + interval '1 day'
       FROM generate_series(0, $3::int - 1) p, generate_series(0, $4::int - 1) i,
            LATERAL (SELECT $1::timestamptz + ($2::timestamptz - $1::timestamptz) * ((i + 0.5) / $4::int) AS at) x`,
    [from, to, pairs, perPair(v.quarantinesPerDay)],
  );
  await run(
    'sync.backfill_windows',
    `INSERT INTO sync.backfill_windows (backfill_id, stream, scope, window_start, window_end, finished_at, fetched, inserted)
     SELECT 'bf_' || md5($1::text), 'invoices', 'ACC' || p, at - interval '1 day', at, at, 40, 40
       FROM generate_series(0, $3::int - 1) p, generate_series(0, $4::int - 1) i,
            LATERAL (SELECT $1::timestamptz + ($2::timestamptz - $1::timestamptz) * ((i + 0.5) / $4::int) AS at) x`,
    [from, to, pairs, perPair(v.backfillWindowsPerDay)],
  );
}
