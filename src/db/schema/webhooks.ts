import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { syncSchema, tz } from './columns.ts';
import { events } from './events.ts';

/** Where derived events are sent (Standard Webhooks). */
export const webhookEndpoints = syncSchema.table('webhook_endpoints', {
  id: text('id').primaryKey().default(sql`('ep_' || replace(gen_random_uuid()::text, '-', ''))`),
  url: text('url').notNull(),
  description: text('description'),
  /** Event types to send; empty means all. */
  eventTypes: text('event_types').array().notNull().default(sql`'{}'::text[]`),
  /** `whsec_<base64>`; never logged. */
  secret: text('secret').notNull(),
  /** The secret before the last `rotate-secret`: deliveries are signed with both until it expires. */
  previousSecret: text('previous_secret'),
  previousSecretExpiresAt: tz('previous_secret_expires_at'),
  enabled: boolean('enabled').notNull().default(true),
  disabledReason: text('disabled_reason'),
  /** Start of the current run of failures; null while healthy. */
  failingSince: tz('failing_since'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'gave_up'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Every delivery attempt of an event to an endpoint. */
export const webhookDeliveries = syncSchema.table(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
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
 * BullMQ jobs only wake deliveries up early; a sweeper re-enqueues due rows whose job went missing.
 */
export const webhookDeliveryStates = syncSchema.table(
  'webhook_delivery_states',
  {
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    series: text('series').notNull().default(''),
    status: text('status').$type<DeliveryStateStatus>().notNull().default('pending'),
    attemptsMade: integer('attempts_made').notNull().default(0),
    /** Null: as many as the retry schedule has (10 on the standard one). */
    maxAttempts: integer('max_attempts'),
    nextAttemptAt: tz('next_attempt_at'),
    leaseUntil: tz('lease_until'),
    lastError: text('last_error'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
  },
  (t) => [
    primaryKey({ columns: [t.endpointId, t.eventId, t.series] }),
    // What the sweeper and the in-process driver read: pending deliveries by due time.
    index('webhook_delivery_states_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_delivery_states_event_idx').on(t.eventId),
    check(
      'webhook_delivery_states_status_check',
      sql`${t.status} in ('pending', 'succeeded', 'gave_up', 'skipped')`,
    ),
  ],
);
