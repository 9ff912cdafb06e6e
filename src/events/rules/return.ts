import type { ShipmentReturn } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { type EventDraft, makeEvent } from '../makeEvent.ts';
import type { DeriveContext, DerivedEvent } from '../types.ts';
import { upstreamInstant } from '../upstreamTime.ts';

const STATUS_FIELDS = ['processingStatusCode', 'processingStatusName', 'resolutionCode', 'resolutionName'];

/** Return events: created, status_changed (processingStatusCode), resolved (to RESOLVED). */
export function returnRule(
  previous: ShipmentReturn | null,
  current: ShipmentReturn,
  ctx: DeriveContext,
): DerivedEvent[] {
  const changes = diffFields(previous, current);
  if (previous && changes.length === 0) return [];
  const base = { kind: 'return' as const, key: String(current.shipReturnId), current, previous };
  const status = current.processingStatusCode ?? null;
  const statusChanged = !previous || (previous.processingStatusCode ?? null) !== status;
  const drafts: EventDraft[] = [];
  if (!previous) {
    drafts.push({
      ...base,
      type: 'return.created',
      transition: 'created',
      occurredAt: upstreamInstant(current.returnDate, ctx.timezone),
      changes,
    });
  } else if (statusChanged) {
    drafts.push({
      ...base,
      type: 'return.status_changed',
      transition: `${previous.processingStatusCode ?? ''}>${status ?? ''}`,
      // Returns carry no status time; the return date is the only upstream time there is.
      occurredAt: undefined,
      changes: pickChanges(changes, STATUS_FIELDS),
    });
  }
  if (status === 'RESOLVED' && statusChanged) {
    drafts.push({
      ...base,
      type: 'return.resolved',
      transition: 'RESOLVED',
      occurredAt: undefined,
      changes: pickChanges(changes, STATUS_FIELDS),
    });
  }
  return drafts.map((draft) => makeEvent(draft, ctx));
}
