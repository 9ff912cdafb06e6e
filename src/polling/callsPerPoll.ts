import { IN_OPEN_STATUS_CODES, RETURN_STATUS_CODES } from '../api/records/enums.ts';
import { DAY_WINDOW_STREAMS, WHOLE_HORIZON_STREAMS } from '../config/streamDefaults.ts';
import type { StreamName, StreamSettings } from '../config/types.ts';

/**
 * What one steady-state poll of a stream and scope costs in upstream calls, estimated from its
 * settings the way its plan reads (src/sync/plan.ts, src/streams/*): the windows a run plans once
 * its cursor is current, one call each, plus the status calls of its open-record windows. Not
 * counted: first loads and catch-ups (more windows), adaptive splits of answers over the row cap
 * (a remembered smaller window costs more calls) and detail calls, which have budgets of their own
 * (orders) or follow changes (INs, products).
 */
export function callsPerPoll(
  stream: StreamName,
  settings: Pick<StreamSettings, 'rereadDays' | 'windowSize' | 'lookbackMinutes'>,
  intervalSeconds: number,
): number {
  if (stream === 'shipments') {
    // Minute windows from the cursor (where the last poll ended) minus the lookback up to now.
    return Math.max(1, Math.ceil((settings.lookbackMinutes + intervalSeconds / 60) / settings.windowSize));
  }
  if (DAY_WINDOW_STREAMS.includes(stream)) {
    // The re-read horizon and today, in windows of `windowSize` days (inventory activity: one day per call).
    const days = Math.max(0, settings.rereadDays) + 1;
    const perWindow = WHOLE_HORIZON_STREAMS.includes(stream) ? Math.max(1, settings.windowSize) : 1;
    return Math.ceil(days / perWindow) + openStatusCalls(stream);
  }
  // products, inventory: one list or snapshot call (orders are on demand, see pollingRule).
  return 1;
}

/** Calls of the window that follows open records whatever their date: one per open status. */
function openStatusCalls(stream: StreamName): number {
  if (stream === 'returns') return RETURN_STATUS_CODES.filter((s) => s !== 'RESOLVED').length;
  if (stream === 'transfers_in') return IN_OPEN_STATUS_CODES.length;
  return 0;
}
