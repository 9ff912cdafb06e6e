import type { World } from '../world/state.ts';
import {
  invoicesSince,
  laterMalformedIn,
  laterMissingIn,
  type ResolvedTargets,
  returnSince,
  type StartTargets,
  shipmentsSince,
} from './targets.ts';

/**
 * Every target as far as the world has produced it: those chosen at the start, and the records
 * created since ("the first shipment after the start") found now. `previous` is the last answer,
 * so a moment already seen (the NUL event's `from`) is kept as it was.
 */
export function resolveTargets(
  w: World,
  s: StartTargets,
  previous: ResolvedTargets | undefined,
): ResolvedTargets {
  const [first, second, third] = shipmentsSince(w, s.accountNumber, s.start, 3);
  const [overflow, oversized] = invoicesSince(w, s.accountNumber, s.start, 2);
  const deep = returnSince(w, s.accountNumber, s.start);
  const malformedIn = s.malformedIn ?? laterMalformedIn(w, s);
  const missingIn = s.missingIn ?? laterMissingIn(w, s, malformedIn?.orderNumber);
  const hub = first?.planned[1];
  return {
    ...s,
    malformedIn,
    missingIn,
    nul:
      first && hub
        ? {
            containerId: first.containerId,
            eventTime: hub.eventTime,
            from:
              previous?.nul?.from ??
              (first.events.includes(hub) ? revealedAt(w, first.containerId, hub.eventTime) : undefined),
          }
        : undefined,
    surrogate: second && { containerId: second.containerId, from: second.shipDate },
    order503: third && {
      accountNumber: third.accountNumber,
      orderNumber: third.orderNumber,
      from: third.shipDate,
    },
    overflowInvoice: overflow && { invoiceNumber: overflow.invoiceNumber, from: overflow.invoiceDate },
    oversizedInvoice: oversized && { invoiceNumber: oversized.invoiceNumber, from: oversized.invoiceDate },
    deepReturn: deep && { shipReturnId: deep.shipReturnId, from: deep.returnDate },
  };
}

/** Whether every lazily found target exists and has been served (then nothing changes any more). */
export function isComplete(t: ResolvedTargets): boolean {
  return Boolean(
    t.nul?.from !== undefined &&
      t.surrogate &&
      t.order503 &&
      t.overflowInvoice &&
      t.oversizedInvoice &&
      t.deepReturn &&
      t.malformedIn &&
      t.missingIn,
  );
}

/** When the tracking event at `eventTime` became visible, from the change history. */
function revealedAt(world: World, containerId: string, eventTime: number): number | undefined {
  const iso = new Date(eventTime).toISOString();
  for (const h of world.history)
    if (h.kind === 'shipment.tracking_event' && h.key === containerId && h.change.eventTime === iso)
      return Date.parse(h.at);
  return undefined;
}
