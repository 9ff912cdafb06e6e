import type { ShipmentReturn } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { episodeMarker, inEpisode } from '../episode.ts';
import { createdDraft, type EventDraft, makeEvent, statusChangedDraft } from '../makeEvent.ts';
import type { EventRule } from '../types.ts';
import { upstreamInstant } from '../upstreamTime.ts';

const STATUS_FIELDS = ['processingStatusCode', 'processingStatusName', 'resolutionCode', 'resolutionName'];

/** Return events: created, status_changed (processingStatusCode), resolved (to RESOLVED). */
export const returnRule: EventRule<ShipmentReturn> = (previous, current, ctx) => {
  const changes = diffFields(previous, current);
  if (previous && changes.length === 0) return [];
  const base = { kind: 'return' as const, key: String(current.shipReturnId), current, previous };
  const status = current.processingStatusCode ?? null;
  const statusChanged = !previous || (previous.processingStatusCode ?? null) !== status;
  // A status can be reached again; returnDate names the episode only if it moved with this change.
  const episode = episodeMarker(
    previous ? upstreamInstant(previous.returnDate, ctx) : undefined,
    upstreamInstant(current.returnDate, ctx),
    ctx,
  );
  const drafts: EventDraft[] = [];
  if (!previous) {
    drafts.push(createdDraft(base, 'return.created', upstreamInstant(current.returnDate, ctx), changes));
  } else if (statusChanged) {
    const move = { from: previous.processingStatusCode, to: status, episode };
    const statusChanges = pickChanges(changes, STATUS_FIELDS);
    // Returns carry no status time; the return date is the only upstream time there is.
    drafts.push(statusChangedDraft(base, 'return.status_changed', move, undefined, statusChanges));
  }
  if (status === 'RESOLVED' && statusChanged) {
    drafts.push({
      ...base,
      type: 'return.resolved',
      transition: inEpisode('RESOLVED', episode),
      occurredAt: undefined,
      changes: pickChanges(changes, STATUS_FIELDS),
    });
  }
  return drafts.map((draft) => makeEvent(draft, ctx));
};
