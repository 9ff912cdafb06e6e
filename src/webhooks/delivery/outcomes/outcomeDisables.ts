import type { Queryable } from '../../../db/queryable.ts';
import { updateEndpointHealth } from '../../endpoints/endpoints.ts';
import type { OutcomeRecord } from './outcomeRecord.ts';

/** What a batch asks of an endpoint: disabled for `reason`, under the condition `failingSince` sets. */
interface DisableAsk {
  reason: string;
  /**
   * Set for a disable earned by failing too long: it stands only while the endpoint is still
   * failing since this time or earlier (a success stored meanwhile, which the claim that judged
   * the attempt could not see, ends it). Null: a 410 Gone, which disables whatever came before.
   */
  failingSince: Date | null;
}

/** Each endpoint's disable in a batch: a 410 Gone wins over a failure run that grew too long. Pure. */
export function disableAsks(records: readonly OutcomeRecord[]): Map<string, DisableAsk> {
  const asks = new Map<string, DisableAsk>();
  for (const record of records) {
    const reason = record.verdict.disableReason;
    if (!reason) continue;
    const gone = record.result.statusCode === 410;
    const current = asks.get(record.endpoint.id);
    if (current && current.failingSince === null) continue;
    asks.set(record.endpoint.id, { reason, failingSince: gone ? null : record.verdict.failingSince });
  }
  return asks;
}

/**
 * Disables the endpoints a batch's outcomes disable (in the caller's transaction, after the
 * outcomes' health is stored): at once for a 410 Gone; for a failure run that lasted too long, only
 * when the stored health still says it has been failing since then.
 */
export async function disableAfterOutcomes(db: Queryable, records: readonly OutcomeRecord[]): Promise<void> {
  for (const [endpointId, ask] of disableAsks(records)) {
    const { rows } = await db.query<{ failing_since: Date | null }>(
      'SELECT failing_since FROM sync.webhook_endpoints WHERE id = $1 FOR UPDATE',
      [endpointId],
    );
    const row = rows[0];
    if (!row) continue;
    const failingSince = row.failing_since ? new Date(row.failing_since) : null;
    if (ask.failingSince !== null && (failingSince === null || failingSince > ask.failingSince)) continue;
    await updateEndpointHealth(db, endpointId, { failingSince, disableReason: ask.reason });
  }
}
