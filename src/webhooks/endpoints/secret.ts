import { randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks format). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A secret for display: the prefix and the last 4 characters only. */
export function maskSecret(secret: string): string {
  return `whsec_****${secret.slice(-4)}`;
}
