import type { Queryable } from '../db/queryable.ts';
import { EVENT_TYPES } from '../events/types.ts';
import { checkEndpointUrl } from './endpointUrl.ts';
import type { Resolve } from './safeLookup.ts';
import { generateSecret } from './secret.ts';
import type { TargetPolicy } from './targetPolicy.ts';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** A webhook endpoint as stored in sync.webhook_endpoints. */
export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  /** Empty: every type. */
  eventTypes: string[];
  secret: string;
  /** The secret before the last rotation, signing beside `secret` until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
}

/** An unknown event type in `--types`. */
export class UnknownEventTypeError extends Error {
  override name = 'UnknownEventTypeError';
}

/** The columns `endpointFromRow` reads. */
export const ENDPOINT_COLUMNS = `id, url, description, event_types, secret, previous_secret, previous_secret_expires_at, enabled,
  disabled_reason, failing_since, created_at`;

/** Checks a type filter against the catalogue; an empty list means every type. */
export function validateEventTypes(types: readonly string[]): string[] {
  const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) {
    throw new UnknownEventTypeError(
      `Unknown event type(s): ${unknown.join(', ')}. Known types: ${EVENT_TYPES.join(', ')}.`,
    );
  }
  return [...new Set(types)];
}

/**
 * Adds an endpoint with a fresh `whsec_` secret; the returned secret is the only time it is shown.
 * The URL must pass the target policy (see endpointUrl.ts); `note` says when its host does not
 * resolve yet.
 */
export async function addEndpoint(
  db: Queryable,
  input: { url: string; eventTypes?: readonly string[]; description?: string | null },
  target: { policy: TargetPolicy; resolve?: Resolve },
): Promise<Endpoint & { note?: string | undefined }> {
  const types = validateEventTypes(input.eventTypes ?? []);
  const { url, note } = await checkEndpointUrl(input.url, target.policy, target.resolve);
  const { rows } = await db.query(
    `INSERT INTO sync.webhook_endpoints (url, description, event_types, secret)
     VALUES ($1, $2, $3::text[], $4) RETURNING ${ENDPOINT_COLUMNS}`,
    [url, input.description ?? null, types, generateSecret()],
  );
  return { ...endpointFromRow(rows[0] as Record<string, unknown>), note };
}

/**
 * Gives an endpoint a new secret; the old one keeps signing beside it for SECRET_OVERLAP_MS so
 * receivers can switch without losing a delivery. Returns the new secret (shown once), or
 * undefined when there is no such endpoint.
 */
export async function rotateSecret(
  db: Queryable,
  id: string,
  now: Date = new Date(),
): Promise<{ secret: string; previousExpiresAt: Date } | undefined> {
  const secret = generateSecret();
  const previousExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS);
  const { rowCount } = await db.query(
    `UPDATE sync.webhook_endpoints
        SET previous_secret = secret, previous_secret_expires_at = $3, secret = $2, updated_at = $4
      WHERE id = $1`,
    [id, secret, previousExpiresAt, now],
  );
  return (rowCount ?? 0) > 0 ? { secret, previousExpiresAt } : undefined;
}

/** The secrets a delivery at `now` is signed with: the current one, and the previous while it overlaps. */
export function signingSecrets(
  endpoint: Pick<Endpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  now: Date,
): string[] {
  const overlapping =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime();
  return overlapping ? [endpoint.secret, endpoint.previousSecret as string] : [endpoint.secret];
}

/** Forgets rotated-out secrets whose overlap has ended; returns how many were dropped. */
export async function dropExpiredSecrets(db: Queryable, now: Date = new Date()): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE sync.webhook_endpoints SET previous_secret = NULL, previous_secret_expires_at = NULL
      WHERE previous_secret_expires_at <= $1`,
    [now],
  );
  return rowCount ?? 0;
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

/** Stores the endpoint's health after an attempt; a disable reason turns it off. */
export async function updateEndpointHealth(
  db: Queryable,
  id: string,
  health: { failingSince: Date | null; disableReason: string | null },
): Promise<void> {
  await db.query(
    `UPDATE sync.webhook_endpoints
        SET failing_since = $2,
            enabled = CASE WHEN $3::text IS NULL THEN enabled ELSE false END,
            disabled_reason = COALESCE($3::text, disabled_reason),
            updated_at = now()
      WHERE id = $1`,
    [id, health.failingSince, health.disableReason],
  );
}

/** Turns an endpoint back on and forgets its failure run. */
export async function enableEndpoint(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE sync.webhook_endpoints SET enabled = true, disabled_reason = NULL, failing_since = NULL,
            updated_at = now() WHERE id = $1`,
    [id],
  );
  return (rowCount ?? 0) > 0;
}

/** Turns an endpoint off by hand: nothing more is sent to it until `enableEndpoint`. */
export async function disableEndpoint(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE sync.webhook_endpoints SET enabled = false, disabled_reason = 'by hand',
            updated_at = now() WHERE id = $1`,
    [id],
  );
  return (rowCount ?? 0) > 0;
}

/** Whether an endpoint wants events of this type. */
export function endpointWants(endpoint: Pick<Endpoint, 'eventTypes'>, type: string): boolean {
  return endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(type);
}

/** An endpoint from its row (or the row's JSON: timestamps as strings). */
export function endpointFromRow(row: Record<string, unknown>): Endpoint {
  return {
    id: String(row.id),
    url: String(row.url),
    description: (row.description as string | null) ?? null,
    eventTypes: (row.event_types as string[] | null) ?? [],
    secret: String(row.secret),
    previousSecret: (row.previous_secret as string | null) ?? null,
    previousSecretExpiresAt: row.previous_secret_expires_at
      ? new Date(row.previous_secret_expires_at as string)
      : null,
    enabled: Boolean(row.enabled),
    disabledReason: (row.disabled_reason as string | null) ?? null,
    failingSince: row.failing_since ? new Date(row.failing_since as string) : null,
    createdAt: new Date(row.created_at as string),
  };
}
