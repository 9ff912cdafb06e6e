import type { TransferOut } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { episodeMarker } from '../episode.ts';
import { createdDraft, type EventDraft, makeEvent, statusChangedDraft, subjectKey } from '../makeEvent.ts';
import type { EventRule } from '../types.ts';
import { upstreamInstant } from '../upstreamTime.ts';

/** Transfer-OUT events: created, status_changed (statusCode). */
export const transferOutRule: EventRule<TransferOut> = (previous, current, ctx) => {
  const changes = diffFields(previous, current);
  if (previous && changes.length === 0) return [];
  const key = subjectKey(current.supplierId ?? ctx.scope, current.orderNumber);
  const base = { kind: 'transfer_out' as const, key, current, previous };
  const drafts: EventDraft[] = [];
  if (!previous) {
    const orderedAt = upstreamInstant(current.orderedDate ?? current.requestDate, ctx);
    drafts.push(createdDraft(base, 'transfer_out.created', orderedAt, changes));
  } else if ((previous.statusCode ?? null) !== (current.statusCode ?? null)) {
    // The row carries no update time, so detectedAt tells a repeated status change apart.
    const episode = episodeMarker(undefined, undefined, ctx);
    const move = { from: previous.statusCode, to: current.statusCode, episode };
    const statusChanges = pickChanges(changes, ['statusCode', 'status']);
    drafts.push(statusChangedDraft(base, 'transfer_out.status_changed', move, undefined, statusChanges));
  }
  return drafts.map((draft) => makeEvent(draft, ctx));
};
