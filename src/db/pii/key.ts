import { randomBytes } from 'node:crypto';
import type { Queryable } from '../queryable.ts';

/** Bytes of a new masking key: SHA-256's block size, the longest key HMAC-SHA-256 uses as is. */
const KEY_BYTES = 64;

/**
 * Writes a random masking key into sync.pii_key unless one is there (run by `migrate`, under its
 * lock, after the migrations). Written here rather than by a migration so that the key comes from
 * Node's CSPRNG and a deleted key comes back (a new one: every masked value changes) at the next
 * migrate instead of leaving every masked value null. Answers whether it wrote one.
 */
export async function ensurePiiKey(db: Queryable): Promise<boolean> {
  // Migrations from before the masking (an older migrations folder) have no key table yet.
  const table = await db.query<{ found: boolean }>("SELECT to_regclass('sync.pii_key') IS NOT NULL AS found");
  if (!table.rows[0]?.found) return false;
  const { rowCount } = await db.query(
    'INSERT INTO sync.pii_key (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
    [randomBytes(KEY_BYTES)],
  );
  return rowCount === 1;
}
