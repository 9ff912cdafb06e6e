import type pg from 'pg';

/**
 * Leases still held (`sync.stream_leases.expires_at` in the future). Called when no worker or CLI
 * runs any more: a run releases its lease by expiring it, and a killed run's lease expires on its
 * own after its TTL, so once a final sync has taken and released every stream and scope's lease,
 * any lease still in the future is stuck (nobody holds it, and it blocks the next run).
 */
export async function leasesStillHeld(pool: pg.Pool): Promise<string[]> {
  const res = await pool.query<{ stream: string; scope: string; expires_at: Date }>(
    `SELECT stream, scope, expires_at FROM sync.stream_leases
      WHERE expires_at > clock_timestamp() ORDER BY stream, scope`,
  );
  return res.rows.map((r) => `${r.stream}/${r.scope} until ${r.expires_at.toISOString()}`);
}
