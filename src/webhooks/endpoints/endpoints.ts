import type { Queryable } from '../../db/queryable.ts';
import type { EndpointDisabledBy } from '../../db/schema/webhooks.ts';
import { validateEventTypes, validateScopeIds } from './endpointFilter.ts';
import { applyHeaderArguments } from './endpointSettings.ts';
import { checkEndpointUrl } from './endpointUrl.ts';
import type { Resolve } from './safeLookup.ts';
import { generateSecret } from './secret.ts';
import type { TargetPolicy } from './targetPolicy.ts';

/** A webhook endpoint as stored in sync.webhook_endpoints. */
export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  /** Types and family patterns (`shipment.*`) as given; empty: every type. See endpointFilter.ts. */
  eventTypes: string[];
  /** Only events of these accounts or (next) suppliers; both empty: every scope. */
  accountNumbers: string[];
  supplierIds: string[];
  secret: string;
  /** The secret before the last rotation, signing beside `secret` until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  enabled: boolean;
  disabledReason: string | null;
  /** Who disabled it (null while enabled): an alert fires only for 'failure'. */
  disabledBy: EndpointDisabledBy | null;
  /** The operator's own key/values; never sent. */
  metadata: Record<string, unknown>;
  /** Extra headers sent with each delivery (never the signature headers or content-type). */
  headers: Record<string, string>;
  /** Most attempts started per second (sync.webhook_endpoints.rate_limit_per_second); null: no limit. */
  rateLimitPerSecond: number | null;
  failingSince: Date | null;
  createdAt: Date;
}

// The rule of which events an endpoint wants, where the relay, replay and recover have always found it.
export { endpointWants, UnknownEventTypeError, validateEventTypes } from './endpointFilter.ts';

/** The columns `endpointFromRow` reads. */
export const ENDPOINT_COLUMNS = `id, url, description, event_types, account_numbers, supplier_ids, secret, previous_secret, previous_secret_expires_at, enabled,
  disabled_reason, disabled_by, metadata, headers, rate_limit_per_second, failing_since, created_at`;

/** The reason `webhooks disable` stores (shown by `webhooks list`). */
export const DISABLED_BY_HAND = 'by hand';

/** Closed disabled periods kept per endpoint (webhooks recover reads them); older ones are dropped. */
export const KEPT_DISABLEMENTS = 50;

/**
 * Adds an endpoint with a fresh `whsec_` secret; the returned secret is the only time it is shown.
 * The URL must pass the target policy (see endpointUrl.ts); `note` says when its host does not
 * resolve yet.
 */
export async function addEndpoint(
  db: Queryable,
  input: {
    url: string;
    eventTypes?: readonly string[];
    accountNumbers?: readonly string[];
    supplierIds?: readonly string[];
    description?: string | null;
    metadata?: Record<string, unknown>;
  },
  target: { policy: TargetPolicy; resolve?: Resolve },
): Promise<Endpoint & { note?: string | undefined }> {
  const types = validateEventTypes(input.eventTypes ?? []);
  const accounts = validateScopeIds(input.accountNumbers ?? [], '--accounts');
  const suppliers = validateScopeIds(input.supplierIds ?? [], '--suppliers');
  const { url, note } = await checkEndpointUrl(input.url, target.policy, target.resolve);
  const { rows } = await db.query(
    `INSERT INTO sync.webhook_endpoints (url, description, event_types, account_numbers, supplier_ids, secret, metadata)
     VALUES ($1, $2, $3::text[], $4::text[], $5::text[], $6, $7::jsonb) RETURNING ${ENDPOINT_COLUMNS}`,
    [
      url,
      input.description ?? null,
      types,
      accounts,
      suppliers,
      generateSecret(),
      JSON.stringify(input.metadata ?? {}),
    ],
  );
  return { ...endpointFromRow(rows[0] as Record<string, unknown>), note };
}

/** What `webhooks update` may change; what is absent stays as it is. */
export interface EndpointUpdate {
  url?: string | undefined;
  /** Empty: every type. */
  eventTypes?: readonly string[] | undefined;
  /** The accounts part of the scope filter (replaced; empty clears it). */
  accountNumbers?: readonly string[] | undefined;
  /** The suppliers part of the scope filter (replaced; empty clears it). */
  supplierIds?: readonly string[] | undefined;
  /** Null or '' clears it. */
  description?: string | null | undefined;
  /** `NAME=VALUE` arguments applied in order; an empty value removes the header. */
  headerArguments?: readonly string[] | undefined;
  /** The whole metadata object (replaces the stored one). */
  metadata?: Record<string, unknown> | undefined;
  /** Deliveries per second; null removes the limit. */
  rateLimitPerSecond?: number | null | undefined;
}

/**
 * Changes an endpoint in place: its id, secret, enabled state and delivery history stay. A new URL
 * passes the target policy as `addEndpoint` checks it (before any row is touched); types and headers
 * are checked too. Returns the endpoint as stored (with `note` when its new host does not resolve
 * yet), or undefined when there is no such endpoint.
 */
export async function updateEndpoint(
  db: Queryable,
  id: string,
  update: EndpointUpdate,
  target: { policy: TargetPolicy; resolve?: Resolve },
): Promise<(Endpoint & { note?: string | undefined }) | undefined> {
  const current = await getEndpoint(db, id);
  if (!current) return undefined;
  const types = update.eventTypes === undefined ? undefined : validateEventTypes(update.eventTypes);
  const accounts =
    update.accountNumbers === undefined ? undefined : validateScopeIds(update.accountNumbers, '--accounts');
  const suppliers =
    update.supplierIds === undefined ? undefined : validateScopeIds(update.supplierIds, '--suppliers');
  const headers =
    update.headerArguments === undefined
      ? undefined
      : applyHeaderArguments(current.headers, update.headerArguments);
  const checked =
    update.url === undefined ? undefined : await checkEndpointUrl(update.url, target.policy, target.resolve);
  const set: string[] = [];
  const params: unknown[] = [id];
  const assign = (column: string, value: unknown, cast = '') => {
    params.push(value);
    set.push(`${column} = $${params.length}${cast}`);
  };
  if (checked) assign('url', checked.url);
  if (types) assign('event_types', types, '::text[]');
  if (accounts) assign('account_numbers', accounts, '::text[]');
  if (suppliers) assign('supplier_ids', suppliers, '::text[]');
  if (update.description !== undefined) assign('description', update.description || null);
  if (headers) assign('headers', JSON.stringify(headers), '::jsonb');
  if (update.metadata !== undefined) assign('metadata', JSON.stringify(update.metadata), '::jsonb');
  if (update.rateLimitPerSecond !== undefined) assign('rate_limit_per_second', update.rateLimitPerSecond);
  if (set.length === 0) return current;
  const { rows } = await db.query(
    `UPDATE sync.webhook_endpoints SET ${set.join(', ')}, updated_at = now() WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
    params,
  );
  return rows[0]
    ? { ...endpointFromRow(rows[0] as Record<string, unknown>), note: checked?.note }
    : undefined;
}

/** Every endpoint, oldest first. */
export async function listEndpoints(db: Queryable): Promise<Endpoint[]> {
  const { rows } = await db.query(
    `SELECT ${ENDPOINT_COLUMNS} FROM sync.webhook_endpoints ORDER BY created_at, id`,
  );
  return rows.map(endpointFromRow);
}

/** One endpoint by id, or undefined. */
export async function getEndpoint(db: Queryable, id: string): Promise<Endpoint | undefined> {
  const { rows } = await db.query(`SELECT ${ENDPOINT_COLUMNS} FROM sync.webhook_endpoints WHERE id = $1`, [
    id,
  ]);
  return rows[0] ? endpointFromRow(rows[0]) : undefined;
}

/** Removes an endpoint (its delivery records go with it); false when there was none. */
export async function removeEndpoint(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM sync.webhook_endpoints WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/**
 * Stores the endpoint's health after an attempt; a disable reason turns it off (disabled by
 * failure), opening a disabled period when it was enabled.
 */
export async function updateEndpointHealth(
  db: Queryable,
  id: string,
  health: { failingSince: Date | null; disableReason: string | null },
): Promise<void> {
  if (health.disableReason) {
    await setDisabled(db, id, 'failure', health.disableReason, { failingSince: health.failingSince });
    return;
  }
  await db.query('UPDATE sync.webhook_endpoints SET failing_since = $2, updated_at = now() WHERE id = $1', [
    id,
    health.failingSince,
  ]);
}

/** Turns an endpoint back on, forgets its failure run and closes its disabled period. */
export async function enableEndpoint(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH ep AS (
       UPDATE sync.webhook_endpoints SET enabled = true, disabled_reason = NULL, disabled_by = NULL,
              failing_since = NULL, updated_at = now()
        WHERE id = $1 RETURNING id),
     closed AS (
       UPDATE sync.webhook_endpoint_disablements SET enabled_at = now()
        WHERE endpoint_id IN (SELECT id FROM ep) AND enabled_at IS NULL),
     pruned AS (
       DELETE FROM sync.webhook_endpoint_disablements
        WHERE endpoint_id IN (SELECT id FROM ep) AND enabled_at IS NOT NULL AND id NOT IN (
          SELECT id FROM sync.webhook_endpoint_disablements WHERE endpoint_id = $1
           ORDER BY disabled_at DESC LIMIT $2))
     SELECT id FROM ep`,
    [id, KEPT_DISABLEMENTS],
  );
  return (rowCount ?? 0) > 0;
}

/** Turns an endpoint off by hand: nothing more is sent to it until `enableEndpoint`. */
export async function disableEndpoint(db: Queryable, id: string): Promise<boolean> {
  return setDisabled(db, id, 'operator', DISABLED_BY_HAND, {});
}

/**
 * Disables an endpoint, or re-labels it when it already is (an operator disabling an endpoint its
 * failures disabled takes it over); a period is opened only when it was enabled.
 */
async function setDisabled(
  db: Queryable,
  id: string,
  by: EndpointDisabledBy,
  reason: string,
  options: { failingSince?: Date | null },
): Promise<boolean> {
  const keepFailing = options.failingSince === undefined;
  const { rowCount } = await db.query(
    `WITH before AS (SELECT id, enabled FROM sync.webhook_endpoints WHERE id = $1 FOR UPDATE),
     ep AS (
       UPDATE sync.webhook_endpoints e SET enabled = false, disabled_reason = $3, disabled_by = $2,
              failing_since = CASE WHEN $5::boolean THEN e.failing_since ELSE $4::timestamptz END,
              updated_at = now()
         FROM before WHERE e.id = before.id RETURNING e.id, before.enabled AS was_enabled),
     opened AS (
       INSERT INTO sync.webhook_endpoint_disablements (endpoint_id, disabled_by, reason, disabled_at)
       SELECT id, $2, $3, now() FROM ep WHERE was_enabled),
     relabelled AS (
       UPDATE sync.webhook_endpoint_disablements SET disabled_by = $2, reason = $3
        WHERE endpoint_id IN (SELECT id FROM ep WHERE NOT was_enabled) AND enabled_at IS NULL)
     SELECT id FROM ep`,
    [id, by, reason, options.failingSince ?? null, keepFailing],
  );
  return (rowCount ?? 0) > 0;
}

/** An endpoint from its row (or the row's JSON: timestamps as strings). */
export function endpointFromRow(row: Record<string, unknown>): Endpoint {
  return {
    id: String(row.id),
    url: String(row.url),
    description: (row.description as string | null) ?? null,
    eventTypes: (row.event_types as string[] | null) ?? [],
    accountNumbers: (row.account_numbers as string[] | null) ?? [],
    supplierIds: (row.supplier_ids as string[] | null) ?? [],
    secret: String(row.secret),
    previousSecret: (row.previous_secret as string | null) ?? null,
    previousSecretExpiresAt: row.previous_secret_expires_at
      ? new Date(row.previous_secret_expires_at as string)
      : null,
    enabled: Boolean(row.enabled),
    disabledReason: (row.disabled_reason as string | null) ?? null,
    disabledBy: (row.disabled_by as EndpointDisabledBy | null) ?? null,
    metadata: (row.metadata as Record<string, unknown> | null) ?? {},
    headers: (row.headers as Record<string, string> | null) ?? {},
    rateLimitPerSecond: row.rate_limit_per_second === null ? null : Number(row.rate_limit_per_second),
    failingSince: row.failing_since ? new Date(row.failing_since as string) : null,
    createdAt: new Date(row.created_at as string),
  };
}
