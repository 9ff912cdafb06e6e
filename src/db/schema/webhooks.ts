import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, primaryKey, text } from 'drizzle-orm/pg-core';
import { rowTimes, syncSchema, tz } from './columns.ts';
import { events } from './events.ts';

export const ENDPOINT_DISABLED_BY = ['failure', 'operator'] as const;
export type EndpointDisabledBy = (typeof ENDPOINT_DISABLED_BY)[number];

/** Where derived events are sent (Standard Webhooks). */
export const webhookEndpoints = syncSchema.table(
  'webhook_endpoints',
  {
    id: text('id').primaryKey().default(sql`('ep_' || replace(gen_random_uuid()::text, '-', ''))`),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types and family patterns (`shipment.*`) to send, as given; empty means all. */
    eventTypes: text('event_types').array().notNull().default(sql`'{}'::text[]`),
    /** Only events of these accounts or of supplier_ids (src/webhooks/endpoints/endpointFilter.ts); both empty: every scope. */
    accountNumbers: text('account_numbers').array().notNull().default(sql`'{}'::text[]`),
    supplierIds: text('supplier_ids').array().notNull().default(sql`'{}'::text[]`),
    /** `whsec_<base64>`; never logged. */
    secret: text('secret').notNull(),
    /** The secret before the last `rotate-secret`: deliveries are signed with both until it expires. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: tz('previous_secret_expires_at'),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** Who disabled it: 'failure' (410 Gone, days of failures) or 'operator' (`webhooks disable`); null while enabled. */
    disabledBy: text('disabled_by').$type<EndpointDisabledBy>(),
    /** The operator's own key/values (`webhooks update --metadata`); never sent. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** Extra request headers sent with every delivery (`webhooks update --header K=V`). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** Start of the current run of failures; null while healthy. */
    failingSince: tz('failing_since'),
    /** Most attempts started per second, across all workers; null: no limit. */
    rateLimitPerSecond: integer('rate_limit_per_second'),
    /** Most attempts in flight at once, across all workers; null: WEBHOOK_ENDPOINT_CONCURRENCY. */
    maxConcurrency: integer('max_concurrency'),
    /** No attempt starts before this: the receiver's Retry-After on a 429 or 503. */
    pausedUntil: tz('paused_until'),
    /** The rate limit's pacing: attempts may start once now is past it (one second of burst). */
    nextSendAt: tz('next_send_at'),
    ...rowTimes(),
  },
  (t) => [
    check(
      'webhook_endpoints_rate_limit_check',
      sql`${t.rateLimitPerSecond} IS NULL OR ${t.rateLimitPerSecond} > 0`,
    ),
    check(
      'webhook_endpoints_max_concurrency_check',
      sql`${t.maxConcurrency} IS NULL OR ${t.maxConcurrency} > 0`,
    ),
  ],
);

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'gave_up'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The endpoint and event a delivery row belongs to; removing either removes it. */
const deliveryOf = () => ({
  endpointId: text('endpoint_id')
    .notNull()
    .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
});

/** Every delivery attempt of an event to an endpoint. */
export const webhookDeliveries = syncSchema.table(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...deliveryOf(),
    /** '' for the delivery the relay started; the replay or test id otherwise. */
    series: text('series').notNull().default(''),
    attempt: integer('attempt').notNull().default(1),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    /** The response body, truncated. */
    responseBody: text('response_body'),
    attemptedAt: tz('attempted_at'),
    nextAttemptAt: tz('next_attempt_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_event_endpoint_idx').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint_attempted_at_idx').on(t.endpointId, t.attemptedAt),
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // What the pruner walks (src/retention/): the oldest attempts first, a batch at a time.
    index('webhook_deliveries_created_at_idx').on(t.createdAt),
    check(
      'webhook_deliveries_status_check',
      sql`${t.status} in ('pending', 'succeeded', 'failed', 'gave_up')`,
    ),
  ],
);

export const DELIVERY_STATE_STATUSES = ['pending', 'succeeded', 'gave_up', 'skipped'] as const;
export type DeliveryStateStatus = (typeof DELIVERY_STATE_STATUSES)[number];

/**
 * Where each delivery of an event to an endpoint stands: the durable truth of pending attempts.
 * Each worker's dispatcher claims due rows (a lease) within each endpoint's own limits.
 */
export const webhookDeliveryStates = syncSchema.table(
  'webhook_delivery_states',
  {
    ...deliveryOf(),
    series: text('series').notNull().default(''),
    status: text('status').$type<DeliveryStateStatus>().notNull().default('pending'),
    attemptsMade: integer('attempts_made').notNull().default(0),
    /** Null: as many as the retry schedule has (10 on the standard one). */
    maxAttempts: integer('max_attempts'),
    nextAttemptAt: tz('next_attempt_at'),
    leaseUntil: tz('lease_until'),
    lastError: text('last_error'),
    ...rowTimes(),
    finishedAt: tz('finished_at'),
  },
  (t) => [
    primaryKey({ columns: [t.endpointId, t.eventId, t.series] }),
    // What the dispatcher's due timer reads (nextClaimAt): the earliest pending due time.
    index('webhook_delivery_states_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // What the dispatcher claims: each endpoint's due deliveries, oldest first.
    index('webhook_delivery_states_endpoint_due_idx')
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // Each endpoint's deliveries held by a sender (in flight), counted against its concurrency.
    index('webhook_delivery_states_leased_idx')
      .on(t.endpointId, t.leaseUntil)
      .where(sql`${t.status} = 'pending' AND ${t.leaseUntil} IS NOT NULL`),
    index('webhook_delivery_states_event_idx').on(t.eventId),
    // What `webhooks recover` reads: an endpoint's deliveries dropped unsent since a time.
    index('webhook_delivery_states_skipped_idx')
      .on(t.endpointId, t.finishedAt)
      .where(sql`${t.status} = 'skipped'`),
    check(
      'webhook_delivery_states_status_check',
      sql`${t.status} in ('pending', 'succeeded', 'gave_up', 'skipped')`,
    ),
  ],
);

/**
 * Each time an endpoint was disabled, until it was enabled again: the relay sends it nothing then,
 * and `webhooks recover` finds those events by these periods. The newest few per endpoint are kept.
 */
export const webhookEndpointDisablements = syncSchema.table(
  'webhook_endpoint_disablements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    disabledBy: text('disabled_by').$type<EndpointDisabledBy>().notNull(),
    reason: text('reason'),
    disabledAt: tz('disabled_at').notNull(),
    enabledAt: tz('enabled_at'),
  },
  (t) => [
    index('webhook_endpoint_disablements_endpoint_idx').on(t.endpointId, t.disabledAt),
    check('webhook_endpoint_disablements_by_check', sql`${t.disabledBy} in ('failure', 'operator')`),
  ],
);
