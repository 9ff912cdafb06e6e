import type { Queryable } from '../../db/queryable.ts';
import type { Endpoint } from './endpoints.ts';
import { generateSecret } from './secret.ts';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

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
