import type { AmbiguousTime } from '../time/parse.ts';

/** The record kinds that derive events, and the event types (docs/events.md). */
export const SUBJECT_KINDS = [
  'shipment',
  'order',
  'return',
  'inventory',
  'transfer_in',
  'transfer_out',
  'invoice',
] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export const EVENT_TYPES = [
  'shipment.created',
  'shipment.status_changed',
  'shipment.delivered',
  'shipment.exception',
  'shipment.returned',
  'shipment.tracking_event',
  'order.status_changed',
  'order.hold_added',
  'order.hold_released',
  'return.created',
  'return.status_changed',
  'return.resolved',
  'inventory.changed',
  'inventory.low_stock',
  'inventory.out_of_stock',
  'inventory.restocked',
  'transfer_in.created',
  'transfer_in.status_changed',
  'transfer_in.received',
  'transfer_out.created',
  'transfer_out.status_changed',
  'invoice.created',
  'invoice.paid',
  'invoice.balance_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The type of the `webhooks test` ping: not a derived event (never stored in sync.events), but a
 * body with a published schema like every other one (schemas/events/webhook.test.json).
 */
export const TEST_EVENT_TYPE = 'webhook.test';

/** One changed field: a dotted path inside the record, its old and new value. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** A derived event as stored in sync.events and sent as the webhook body. */
export interface DerivedEvent {
  /** Deterministic: the same transition of the same subject in the same episode always yields the same id. */
  id: string;
  type: EventType;
  /** ISO 8601 UTC: the upstream time of the change where the record carries one, else detectedAt. */
  occurredAt: string;
  /** ISO 8601 UTC: when the sync saw the change. */
  detectedAt: string;
  subject: { kind: SubjectKind; key: string };
  data: { current: unknown; previous: unknown; changes: FieldChange[] };
}

/** Low-stock thresholds: a default and per-SKU overrides (config.events). */
export interface StockThresholds {
  lowStockThreshold: number;
  lowStockThresholdsBySku: Readonly<Record<string, number>>;
}

/** What every rule needs besides the two records. */
export interface DeriveContext {
  detectedAt: Date;
  /** IANA zone of upstream wall-clock times without an offset (config.timezone). */
  timezone: string;
  /** How an offset-less time in the repeated autumn hour is read (config.ambiguousTime); default 'later'. */
  ambiguousTime?: AmbiguousTime;
  thresholds: StockThresholds;
  /**
   * The stream scope (supplier id or account number). Used in subject keys where the record lacks
   * it: owned-inventory rows carry no supplierId.
   */
  scope?: string;
}

/**
 * A subject kind's event rule: the events of one record's change, `previous` as stored last time
 * (null when first seen), `current` as just received. Pure; an unchanged record yields [].
 */
export type EventRule<T> = (previous: T | null, current: T, ctx: DeriveContext) => DerivedEvent[];
