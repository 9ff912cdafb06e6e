DROP VIEW "fulfillment"."sync_health";--> statement-breakpoint
CREATE VIEW "fulfillment"."sync_health" AS (
    WITH k AS (
      SELECT stream, scope FROM sync.cursors
      UNION
      SELECT DISTINCT stream, scope FROM sync.runs)
    SELECT k.stream, k.scope, c.last_success_at,
           floor(extract(epoch FROM now() - c.last_success_at))::bigint AS lag_seconds,
           c.position_at AS cursor_position_at,
           CASE WHEN c.last_polled_at > coalesce(lr.finished_at, '-infinity') THEN c.last_polled_at
                ELSE lr.started_at END AS last_run_at,
           CASE WHEN c.last_polled_at > coalesce(lr.finished_at, '-infinity') THEN 'succeeded'
                ELSE lr.status END AS last_run_status,
           f.error AS last_error, f.finished_at AS last_error_at,
           f.finished_at IS NOT NULL AND (c.last_success_at IS NULL OR f.finished_at > c.last_success_at)
             AS is_failing,
           coalesce(d.runs, 0) AS runs_24h, coalesce(d.failed_runs, 0) AS failed_runs_24h,
           coalesce(d.rows_written, 0) AS rows_24h, coalesce(d.rejected, 0) AS rejected_24h,
           coalesce(d.events, 0) AS events_24h, coalesce(d.api_calls, 0) AS api_calls_24h
      FROM k
      LEFT JOIN sync.cursors c ON c.stream = k.stream AND c.scope = k.scope
      LEFT JOIN LATERAL (
        SELECT r.started_at, r.finished_at, r.status FROM sync.runs r
         WHERE r.stream = k.stream AND r.scope = k.scope
         ORDER BY r.started_at DESC LIMIT 1) lr ON true
      LEFT JOIN LATERAL (
        SELECT r.error, r.finished_at FROM sync.runs r
         WHERE r.stream = k.stream AND r.scope = k.scope AND r.status = 'failed'
         ORDER BY r.started_at DESC LIMIT 1) f ON true
      LEFT JOIN LATERAL (
        SELECT count(*)::integer AS runs,
               (count(*) FILTER (WHERE r.status = 'failed'))::integer AS failed_runs,
               sum(r.inserted + r.updated)::bigint AS rows_written,
               sum(r.rejected)::bigint AS rejected,
               sum(r.events)::bigint AS events,
               sum(r.api_calls)::bigint AS api_calls
          FROM sync.runs r
         WHERE r.stream = k.stream AND r.scope = k.scope
           AND r.started_at > now() - interval '24 hours') d ON true);