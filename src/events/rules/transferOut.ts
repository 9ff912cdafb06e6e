import type { TransferOut } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { episodeMarker, inEpisode, statusTransition } from '../episode.ts';
import { createdDraft, type EventDraft, makeEvent, subjectKey } from '../makeEvent.ts';
import type { DeriveContext, DerivedEvent } from '../types.ts';
import { upstreamInstant } from '../upstreamTime.ts';

/** Transfer-OUT events: created, status_changed (statusCode). */
export function transferOutRule(
  previous: TransferOut | null,
  current: TransferOut,
  ctx: DeriveContext,
): DerivedEvent[] {
  const changes = diffFields(previous, current);
  if (previous && changes.length === 0) return [];
  const key = subjectKey(current.supplierId ?? ctx.scope, current.orderNumber);
  const base = { kind: 'transfer_out' as const, key, current, previous };
  const drafts: EventDraft[] = [];
  if (!previous) {
    const orderedAt = upstreamInstant(current.orderedDate ?? current.requestDate, ctx);
    drafts.push(createdDraft(base, 'transfer_out.created', orderedAt, changes));
  } else if ((previous.statusCode ?? null) !== (current.statusCode ?? null)) {
    drafts.push({
      ...base,
      type: 'transfer_out.status_changed',
      // The row carries no update time, so detectedAt tells a repeated status change apart.
      transition: inEpisode(
        statusTransition(previous.statusCode, current.statusCode),
        episodeMarker(undefined, undefined, ctx),
      ),
      occurredAt: undefined,
      changes: pickChanges(changes, ['statusCode', 'status']),
    });
  }
  return drafts.map((draft) => makeEvent(draft, ctx));
}
