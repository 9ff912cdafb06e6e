import type { ShipmentUpdate } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { episodeMarker, inEpisode } from '../episode.ts';
import { createdDraft, type EventDraft, makeEvent, statusChangedDraft } from '../makeEvent.ts';
import { trackingEventKey } from '../trackingEventKey.ts';
import type { EventRule, EventType } from '../types.ts';
import { latestInstant, type UpstreamClock, upstreamInstant } from '../upstreamTime.ts';

/** Statuses that have their own event besides status_changed. */
const STATUS_EVENTS: Readonly<Record<string, EventType>> = {
  DELIVERED: 'shipment.delivered',
  EXCEPTION: 'shipment.exception',
  RETURNED: 'shipment.returned',
};

/** Shipment events: created, status_changed, delivered / exception / returned, tracking_event. */
export const shipmentRule: EventRule<ShipmentUpdate> = (previous, current, ctx) => {
  const key = current.header.containerId;
  const changes = diffFields(previous, current, ['header']);
  if (previous && changes.length === 0) return [];
  const base = { kind: 'shipment' as const, key, current, previous };
  const drafts: EventDraft[] = [];
  const status = current.header.statusCode ?? null;
  const lastScan = latestScan(current, ctx);
  // A status can be reached again (EXCEPTION -> IN_TRANSIT -> EXCEPTION): the scan that came with
  // the change names the episode, else detectedAt does.
  const episode = episodeMarker(previous ? latestScan(previous, ctx) : undefined, lastScan, ctx);
  if (!previous) {
    const shippedAt = upstreamInstant(current.header.shipDate, ctx);
    drafts.push(createdDraft(base, 'shipment.created', shippedAt, changes));
  } else if ((previous.header.statusCode ?? null) !== status) {
    const move = { from: previous.header.statusCode, to: status, episode };
    const statusChanges = pickChanges(changes, ['header.statusCode', 'header.statusDescription']);
    drafts.push(statusChangedDraft(base, 'shipment.status_changed', move, lastScan, statusChanges));
  }
  const statusType = status ? STATUS_EVENTS[status] : undefined;
  const statusChanged = !previous || (previous.header.statusCode ?? null) !== status;
  if (statusType && statusChanged) {
    drafts.push({
      ...base,
      type: statusType,
      transition: inEpisode(status ?? '', episode),
      occurredAt: lastScan,
      changes: pickChanges(changes, ['header.statusCode', 'header.statusDescription']),
    });
  }
  drafts.push(...newTrackingEvents(previous, current, base));
  return drafts.map((draft) => makeEvent(draft, ctx));

  function newTrackingEvents(
    prev: ShipmentUpdate | null,
    cur: ShipmentUpdate,
    common: typeof base,
  ): EventDraft[] {
    const seen = new Set((prev?.events ?? []).map((event) => trackingEventKey(event, ctx)));
    const out: EventDraft[] = [];
    for (const event of cur.events ?? []) {
      const hash = trackingEventKey(event, ctx);
      if (seen.has(hash)) continue;
      seen.add(hash);
      out.push({
        ...common,
        type: 'shipment.tracking_event',
        transition: hash,
        occurredAt: upstreamInstant(event.eventTime, ctx),
        changes: [{ field: 'events', from: null, to: event }],
      });
    }
    return out;
  }
};

/** The latest tracking scan time of a shipment (ISO UTC), if any scan has a readable time. */
function latestScan(shipment: ShipmentUpdate, clock: UpstreamClock): string | undefined {
  return latestInstant(
    (shipment.events ?? []).map((e) => e.eventTime),
    clock,
  );
}
