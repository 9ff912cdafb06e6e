import type { OrderDetail, OrderDetailHold } from '../../api/records/index.ts';
import { codePart, instantPart, type KeyClock } from '../../streams/contentKey.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { episodeMarker } from '../episode.ts';
import { type EventDraft, makeEvent, statusChangedDraft, subjectKey } from '../makeEvent.ts';
import type { EventRule } from '../types.ts';
import { upstreamInstant } from '../upstreamTime.ts';

/**
 * Holds have no id upstream: name + creation time identify one, read for their meaning (the name's
 * case and spacing, the instant however it is spelled), as the warehouse keys them (childKeys.ts).
 */
export function holdId(hold: OrderDetailHold, clock: KeyClock): string {
  return `${codePart(hold.holdName) ?? ''}@${instantPart(hold.creationDate, clock) ?? hold.creationDate}`;
}

/** A hold counts as released once it has a release date or a status saying so. */
export function isHoldActive(hold: OrderDetailHold): boolean {
  return !hold.releaseDate && !/releas|inactive|closed|expired/i.test(hold.holdStatus ?? '');
}

/**
 * Order events (from OrderDetail): status_changed (header.orderStatusCode), hold_added,
 * hold_released. There is no order.created: an order first seen yields hold_added for each hold
 * still active, and nothing for its status.
 */
export const orderRule: EventRule<OrderDetail> = (previous, current, ctx) => {
  const changes = diffFields(previous, current, ['header']);
  if (previous && changes.length === 0) return [];
  const header = current.header;
  const key = subjectKey(header.accountNumber ?? ctx.scope, header.orderNumber);
  const base = { kind: 'order' as const, key, current, previous };
  const drafts: EventDraft[] = [];
  const status = header.orderStatusCode ?? null;
  if (previous && (previous.header.orderStatusCode ?? null) !== status) {
    // The detail carries no status time, so detectedAt tells a repeated status change apart.
    const episode = episodeMarker(undefined, undefined, ctx);
    const move = { from: previous.header.orderStatusCode, to: status, episode };
    const statusChanges = pickChanges(changes, ['header.orderStatusCode', 'header.orderStatusName']);
    drafts.push(statusChangedDraft(base, 'order.status_changed', move, undefined, statusChanges));
  }
  const before = new Map((previous?.holds ?? []).map((hold) => [holdId(hold, ctx), hold]));
  const seenNow = new Set<string>();
  for (const hold of current.holds ?? []) {
    const id = holdId(hold, ctx);
    seenNow.add(id);
    const old = before.get(id);
    const active = isHoldActive(hold);
    // New to us: added if active now, or if it came and went between two reads of a known order.
    if (!old && (active || previous)) {
      drafts.push({
        ...base,
        type: 'order.hold_added',
        transition: id,
        occurredAt: upstreamInstant(hold.creationDate, ctx),
        changes: [{ field: 'holds', from: null, to: hold }],
      });
    }
    if (!active && (old ? isHoldActive(old) : Boolean(previous))) {
      drafts.push(releasedDraft(hold, old ?? null, upstreamInstant(hold.releaseDate, ctx)));
    }
  }
  // A hold that was active and vanished from the detail was lifted.
  for (const [id, old] of before) {
    if (!seenNow.has(id) && isHoldActive(old)) drafts.push(releasedDraft(null, old, undefined));
  }
  return drafts.map((draft) => makeEvent(draft, ctx));

  function releasedDraft(
    hold: OrderDetailHold | null,
    old: OrderDetailHold | null,
    occurredAt: string | undefined,
  ): EventDraft {
    const id = holdId((hold ?? old) as OrderDetailHold, ctx);
    return {
      ...base,
      type: 'order.hold_released',
      transition: id,
      occurredAt,
      changes: [{ field: 'holds', from: old, to: hold }],
    };
  }
};
