import { sql } from 'drizzle-orm';
import { check, customType, smallint } from 'drizzle-orm/pg-core';
import { syncSchema, tz } from './columns.ts';

/** Raw bytes (Postgres bytea), read as a Buffer by node-postgres. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The secret key of the PII masking (HMAC-SHA-256): one row, 64 random bytes written by the
 * migration that creates the masking functions. It lives in schema `sync`, which no reader role can
 * read, so a reader sees hashes it cannot recompute from a list of guessed e-mails or names; the
 * masking views of `fulfillment_masked` read it with their owner's rights. Replacing it (UPDATE)
 * changes every masked value at once, consistently, since masking happens at query time.
 */
export const piiKey = syncSchema.table(
  'pii_key',
  {
    id: smallint('id').primaryKey().default(1),
    key: bytea('key').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('pii_key_single_row', sql`${t.id} = 1`),
    check('pii_key_length', sql`octet_length(${t.key}) >= 32`),
  ],
);
