import type { Pool } from 'pg';
import { type PollingRule, pollingRule } from '../../config/pollingRule.ts';
import type { Config, StreamName } from '../../config/types.ts';
import type { Queryable } from '../../db/queryable.ts';
import { readEndpointBacklog, readRelayBacklog } from '../../webhooks/views/backlog.ts';
import { endpointStats, STATS_WINDOW_MS } from '../../webhooks/views/endpointStats.ts';
import { scopesOf } from '../../worker/streamScopes.ts';
import { sharedRead } from '../metricKinds.ts';

/**
 * What the status page shows, read from Postgres with bounded queries, one at a time (the page
 * shares the small pool of readiness and metrics): streams x scopes, endpoints, the relay's
 * backlog, the latest events. Never a secret: endpoints are read without theirs.
 */

/** Most stream x scope rows a page shows (100 pairs of all streams is 900). */
export const MAX_STREAM_ROWS = 1000;
/** Most parts (run rows) of a run whose withheld rows are added up; 50 where its cursor does not say. */
export const MAX_RUN_PARTS = 1000;
const RUN_PARTS_UNKNOWN = 50;
/** Most endpoints a page shows. */
export const MAX_ENDPOINT_ROWS = 200;
/** One read serves every load within this (tabs, reloads): a slow read holds one connection, not all. */
export const SNAPSHOT_TTL_MS = 5_000;
/** Latest events shown. */
export const LATEST_EVENTS = 20;
/** How far back by seq the latest events are looked for (a first load stores thousands of history events). */
export const LATEST_EVENTS_LOOKBACK = 5000;

export interface StreamRow {
  stream: string;
  scope: string;
  rule: PollingRule;
  lastSuccessAt: Date | null;
  /** The newest failed run within a day, with its error. */
  lastError: string | null;
  lastErrorAt: Date | null;
  /** Status of the newest finished run. */
  lastRunStatus: string | null;
  /** Rows the newest finished run kept although a read no longer listed them; null: not recorded. */
  vanishWithheld: number | null;
}

export interface EndpointRow {
  id: string;
  url: string;
  enabled: boolean;
  disabledBy: string | null;
  disabledReason: string | null;
  failingSince: Date | null;
  pausedUntil: Date | null;
  pending: number;
  oldestPendingAt: Date | null;
  attempts24h: number;
  successRate24h: number | null;
  p95Ms24h: number | null;
  lastSuccessAt: Date | null;
}

export interface EventRow {
  id: string;
  type: string;
  subject: string;
  stream: string | null;
  scope: string | null;
  occurredAt: Date;
  detectedAt: Date;
  suppressed: boolean;
  dispatchedAt: Date | null;
  /** The relay's deliveries of it, by state. */
  delivered: number;
  pending: number;
  gaveUp: number;
}

export interface StatusSnapshot {
  at: Date;
  streams: StreamRow[];
  /** Stream x scope rows beyond MAX_STREAM_ROWS, not shown. */
  streamsNotShown: number;
  endpoints: EndpointRow[];
  relay: { undispatched: number; oldestDetectedAt: Date | null };
  events: EventRow[];
}

/** Reads the page's snapshot from `pool` for what `config` schedules; loads within SNAPSHOT_TTL_MS share it. */
export function createStatusReadModel(
  pool: Pick<Pool, 'query'>,
  config: Pick<Config, 'streams' | 'supplierIds' | 'accountNumbers'>,
  now: () => Date = () => new Date(),
): () => Promise<StatusSnapshot> {
  return sharedRead(async () => {
    const at = now();
    const streams = await readStreams(pool, config);
    const endpoints = await readEndpoints(pool, at);
    const relay = await readRelayBacklog(pool);
    const events = await readLatestEvents(pool);
    return {
      at,
      streams: streams.rows,
      streamsNotShown: streams.notShown,
      endpoints,
      relay: { undispatched: relay.undispatched, oldestDetectedAt: relay.oldestDetectedAt },
      events,
    };
  }, SNAPSHOT_TTL_MS);
}

/**
 * Every scheduled stream x configured scope, and any other with a cursor (a scope since removed,
 * orders read on demand): its last success; its newest finished run (runs_stream_scope_started_at_idx;
 * an empty poll writes none: a later last_polled_at, emptyPoll.ts) and the rows it withheld in any
 * part (rows of its lease fence among its cursor's last-run parts); the newest failure of the day:
 * that run if it failed (an outage elsewhere cannot hide it), else one of the 1,000 newest failures.
 */
async function readStreams(
  db: Queryable,
  config: Pick<Config, 'streams' | 'supplierIds' | 'accountNumbers'>,
): Promise<{ rows: StreamRow[]; notShown: number }> {
  const pairs = (Object.keys(config.streams) as StreamName[])
    .filter((stream) => pollingRule(config.streams[stream]).kind !== 'on-demand')
    .flatMap((stream) => scopesOf(config, stream).map((scope) => [stream, scope] as const));
  const { rows } = await db.query<{
    stream: string;
    scope: string;
    last_success_at: Date | null;
    error: string | null;
    error_at: Date | null;
    last_status: string | null;
    withheld: number | null;
    total: number;
  }>(
    `WITH keys AS (
       SELECT stream, scope FROM unnest($1::text[], $2::text[]) AS k(stream, scope)
       UNION
       SELECT stream, scope FROM sync.cursors),
     failures AS (
       SELECT DISTINCT ON (stream, scope) stream, scope, error, finished_at
         FROM (SELECT stream, scope, error, finished_at, started_at FROM sync.runs
                WHERE status = 'failed' AND started_at > now() - interval '24 hours'
                ORDER BY started_at DESC LIMIT 1000) f
        ORDER BY stream, scope, started_at DESC)
     SELECT k.stream, k.scope, c.last_success_at,
            CASE WHEN l.failed_today THEN l.error ELSE f.error END AS error,
            CASE WHEN l.failed_today THEN l.finished_at ELSE f.finished_at END AS error_at,
            CASE WHEN c.last_polled_at > coalesce(l.finished_at, '-infinity') THEN 'succeeded' ELSE l.status END
              AS last_status, CASE WHEN c.last_polled_at > l.finished_at THEN 0 ELSE w.withheld END AS withheld,
            count(*) OVER ()::int AS total
       FROM keys k
       LEFT JOIN sync.cursors c ON c.stream = k.stream AND c.scope = k.scope
       LEFT JOIN failures f ON f.stream = k.stream AND f.scope = k.scope
       LEFT JOIN LATERAL (
         SELECT r.status, r.started_at, r.lease_fence, r.error, r.finished_at,
                r.status = 'failed' AND r.started_at > now() - interval '24 hours' AS failed_today
           FROM sync.runs r
          WHERE r.stream = k.stream AND r.scope = k.scope AND r.status <> 'running'
          ORDER BY r.started_at DESC LIMIT 1) l ON true
       LEFT JOIN LATERAL (
         SELECT sum(p.vanish_withheld)::int AS withheld
           FROM (SELECT r.vanish_withheld, r.lease_fence FROM sync.runs r
                  WHERE r.stream = k.stream AND r.scope = k.scope AND r.started_at <= l.started_at
                  ORDER BY r.started_at DESC
                  LIMIT least(coalesce((c.last_run->>'windows')::int, $5), $4)) p
          WHERE p.lease_fence IS NOT DISTINCT FROM l.lease_fence) w ON true
      ORDER BY k.stream, k.scope
      LIMIT $3`,
    [
      pairs.map(([stream]) => stream),
      pairs.map(([, scope]) => scope),
      MAX_STREAM_ROWS,
      MAX_RUN_PARTS,
      RUN_PARTS_UNKNOWN,
    ],
  );
  const ruleOf = (stream: string): PollingRule => {
    const settings = config.streams[stream as StreamName];
    return settings ? pollingRule(settings) : { kind: 'on-demand' };
  };
  return {
    rows: rows.map((r) => ({
      stream: r.stream,
      scope: r.scope,
      rule: ruleOf(r.stream),
      lastSuccessAt: r.last_success_at,
      lastError: r.error,
      lastErrorAt: r.error_at,
      lastRunStatus: r.last_status,
      vanishWithheld: r.withheld,
    })),
    notShown: Math.max(0, (rows[0]?.total ?? 0) - rows.length),
  };
}

/**
 * Each endpoint (its URL without the query, which may carry a token), its health, its backlog,
 * and its figures over the last 24 hours.
 */
async function readEndpoints(db: Queryable, at: Date): Promise<EndpointRow[]> {
  const { rows } = await db.query<{
    id: string;
    url: string;
    enabled: boolean;
    disabled_by: string | null;
    disabled_reason: string | null;
    failing_since: Date | null;
    paused_until: Date | null;
  }>(
    `SELECT id, url, enabled, disabled_by, disabled_reason, failing_since, paused_until
       FROM sync.webhook_endpoints ORDER BY created_at, id LIMIT $1`,
    [MAX_ENDPOINT_ROWS],
  );
  const backlog = new Map((await readEndpointBacklog(db)).map((b) => [b.endpointId, b]));
  const stats = new Map(
    (await endpointStats(db, { since: new Date(at.getTime() - STATS_WINDOW_MS) })).map((s) => [
      s.endpointId,
      s,
    ]),
  );
  return rows.map((r) => {
    const s = stats.get(r.id);
    const b = backlog.get(r.id);
    return {
      id: r.id,
      url: withoutQuery(r.url),
      enabled: r.enabled,
      disabledBy: r.disabled_by,
      disabledReason: r.disabled_reason,
      failingSince: r.failing_since,
      pausedUntil: r.paused_until && r.paused_until > at ? r.paused_until : null,
      pending: b?.pending ?? 0,
      oldestPendingAt: b?.oldestPendingAt ?? null,
      attempts24h: s?.attempts ?? 0,
      successRate24h: s?.successRate ?? null,
      p95Ms24h: s?.p95Ms ?? null,
      lastSuccessAt: s?.lastSuccessAt ?? null,
    };
  });
}

/** `https://host/path`: a URL's query and fragment may carry a token; the page never shows them. */
export function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search || parsed.hash ? '?…' : ''}`;
  } catch {
    return '(unreadable URL)';
  }
}

/**
 * The newest deliverable events (history from first loads and backfills is stored, never sent),
 * among the newest LATEST_EVENTS_LOOKBACK by seq (events_seq_idx), with their relay deliveries by
 * state.
 */
async function readLatestEvents(db: Queryable): Promise<EventRow[]> {
  const { rows } = await db.query<{
    id: string;
    type: string;
    subject_kind: string;
    subject_key: string;
    stream: string | null;
    scope: string | null;
    occurred_at: Date;
    detected_at: Date;
    suppressed: boolean;
    dispatched_at: Date | null;
    delivered: number;
    pending: number;
    gave_up: number;
  }>(
    `SELECT e.id, e.type, e.subject_kind, e.subject_key, e.stream, e.scope, e.occurred_at, e.detected_at,
            e.suppressed, e.dispatched_at, d.delivered, d.pending, d.gave_up
       FROM (SELECT * FROM (SELECT * FROM sync.events ORDER BY seq DESC LIMIT $2) newest
              WHERE NOT suppressed ORDER BY seq DESC LIMIT $1) e
       CROSS JOIN LATERAL (
         SELECT count(*) FILTER (WHERE s.status = 'succeeded')::int AS delivered,
                count(*) FILTER (WHERE s.status = 'pending')::int AS pending,
                count(*) FILTER (WHERE s.status = 'gave_up')::int AS gave_up
           FROM sync.webhook_delivery_states s
          WHERE s.event_id = e.id AND s.series = '') d
      ORDER BY e.seq DESC`,
    [LATEST_EVENTS, LATEST_EVENTS_LOOKBACK],
  );
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    subject: `${r.subject_kind} ${r.subject_key}`,
    stream: r.stream,
    scope: r.scope,
    occurredAt: r.occurred_at,
    detectedAt: r.detected_at,
    suppressed: r.suppressed,
    dispatchedAt: r.dispatched_at,
    delivered: r.delivered,
    pending: r.pending,
    gaveUp: r.gave_up,
  }));
}
