import type { AttemptFacts } from '../webhooks/delivery/deliver.ts';
import { histogram, scrapedGauge } from './metricKinds.ts';

/**
 * Webhook delivery as a subscriber feels it: how long a change takes to reach them, and what is
 * still waiting (per endpoint, and events the relay has not fanned out yet).
 */

/**
 * Seconds from a change to its delivery: fine around the one-minute freshness target, then coarse
 * up to the day an invoice or a retried delivery may take.
 */
export const DELIVERY_LATENCY_BUCKETS = [
  1, 2.5, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 1800, 3600, 21_600, 86_400,
] as const;

/** One endpoint's backlog, as the scrape reads it (enabled endpoints only). */
export interface EndpointBacklog {
  endpoint: string;
  /** Deliveries not yet answered with a 2xx nor given up (due, retrying, or in flight). */
  pending: number;
  /** Seconds since the oldest pending delivery was handed to the endpoint; 0 without any. */
  oldestPendingSeconds: number;
  /** Seconds since its current run of failed attempts began; 0 while healthy. */
  failingSeconds: number;
}

/** Events stored but not fanned out to the endpoints yet (the relay's backlog). */
export interface RelayBacklog {
  undispatched: number;
  /** Seconds since the oldest of them was detected; 0 without any. */
  oldestSeconds: number;
}

type Source<T> = (() => Promise<T>) | undefined;
let endpointBacklogSource: Source<EndpointBacklog[]>;
let relayBacklogSource: Source<RelayBacklog>;

/**
 * Sets where the backlog gauges are read at scrape time (the worker reads sync.webhook_* and
 * sync.events). Each gauge of a group calls its source, so a source should answer one scrape from
 * one query (see `sharedRead`).
 */
export function setDeliveryBacklogSources(sources: {
  endpoints: Source<EndpointBacklog[]>;
  relay: Source<RelayBacklog>;
}): void {
  endpointBacklogSource = sources.endpoints;
  relayBacklogSource = sources.relay;
}

/** A gauge with one series per enabled endpoint, rebuilt at every scrape. */
function perEndpoint(name: string, help: string, value: (backlog: EndpointBacklog) => number) {
  return scrapedGauge(
    name,
    help,
    ['endpoint'],
    async () => (await endpointBacklogSource?.())?.map((b) => [{ endpoint: b.endpoint }, value(b)]),
    { replaceSeries: true },
  );
}

/** A gauge without labels over the relay's backlog. */
function relayGauge(name: string, help: string, value: (backlog: RelayBacklog) => number) {
  return scrapedGauge(name, help, [], async () => {
    const backlog = await relayBacklogSource?.();
    return backlog ? [[{}, value(backlog)]] : undefined;
  });
}

export const deliveryMetrics = {
  changeToDelivery: histogram(
    'fulfillment_webhook_change_to_delivery_seconds',
    "From the upstream change (the event's occurredAt) to the subscriber's 2xx, by event family (shipment, inventory, return, invoice, ...); first deliveries only, not replays.",
    ['family'],
    DELIVERY_LATENCY_BUCKETS,
  ),
  detectionToDelivery: histogram(
    'fulfillment_webhook_detection_to_delivery_seconds',
    "From the sync detecting the change (the event's detectedAt) to the subscriber's 2xx, by event family; first deliveries only, not replays.",
    ['family'],
    DELIVERY_LATENCY_BUCKETS,
  ),
  pending: perEndpoint(
    'fulfillment_webhook_pending_deliveries',
    'Deliveries to each enabled endpoint not yet answered with a 2xx nor given up (due, waiting for a retry, or in flight).',
    (b) => b.pending,
  ),
  oldestPending: perEndpoint(
    'fulfillment_webhook_oldest_pending_delivery_age_seconds',
    "Seconds since the oldest pending delivery to each enabled endpoint was handed to it (0: nothing waits): the endpoint's backlog.",
    (b) => b.oldestPendingSeconds,
  ),
  failing: perEndpoint(
    'fulfillment_webhook_endpoint_failing_seconds',
    'Seconds since each enabled endpoint began failing without a success in between (0: healthy); five days of it disable the endpoint.',
    (b) => b.failingSeconds,
  ),
  undispatched: relayGauge(
    'fulfillment_events_undispatched',
    'Deliverable events the relay has not fanned out to the endpoints yet (its backlog).',
    (b) => b.undispatched,
  ),
  oldestUndispatched: relayGauge(
    'fulfillment_events_oldest_undispatched_age_seconds',
    'Seconds since the oldest event the relay has not fanned out yet was detected (0: none waits).',
    (b) => b.oldestSeconds,
  ),
};

/** An event type's family: `shipment` of `shipment.delivered` (a bounded label: the catalogue's prefixes). */
export function eventFamily(type: string): string {
  return type.split('.', 1)[0] ?? type;
}

/**
 * Observes how long a delivered event took to reach its subscriber, from the change and from its
 * detection. Replays and recovers (a series) are asked for later on purpose: they would read as
 * slowness, so only the relay's own deliveries count.
 */
export function recordDeliveredLatency(facts: AttemptFacts): void {
  if (facts.series !== '') return;
  const family = eventFamily(facts.eventType);
  const at = facts.answeredAt.getTime();
  const since = (from: Date) => Math.max(0, (at - from.getTime()) / 1000);
  deliveryMetrics.changeToDelivery.observe({ family }, since(facts.occurredAt));
  deliveryMetrics.detectionToDelivery.observe({ family }, since(facts.detectedAt));
}
