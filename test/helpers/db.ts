import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Db } from '../../src/db/client.ts';
import { quoteIdent, withDatabase } from '../../src/db/urls.ts';

/** A database of one's own, migrated, for one test file. */
export interface TestDatabase {
  /** Its URL, for code under test that opens its own connections (CLI, workers). */
  url: string;
  /** Its name, e.g. for pg_stat queries. */
  name: string;
  db: Db;
  pool: pg.Pool;
  /** Closes the pool and drops the database (even if something is still connected). */
  close: () => Promise<void>;
}

/**
 * Clones a fresh database from the template that test/setup/global.ts migrated once for this run.
 * Call it in `beforeAll` and `close()` in `afterAll`.
 *
 * @example
 * let t: TestDatabase;
 * beforeAll(async () => { t = await createTestDatabase(); });
 * afterAll(() => t.close());
 */
export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const serverUrl = inject('databaseUrl');
  const template = inject('templateDatabase');
  const name = `fs_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${quoteIdent(name)} template ${quoteIdent(template)}`);
  const url = withDatabase(serverUrl, name);
  const { db, pool, close } = createDatabase(url, { max: options.max ?? 5, applicationName: `test ${name}` });
  let closed: Promise<void> | undefined;
  return {
    url,
    name,
    db,
    pool,
    close: () => {
      closed ??= close().then(() =>
        adminQuery(serverUrl, `drop database if exists ${quoteIdent(name)} with (force)`),
      );
      return closed;
    },
  };
}

/** A fresh, unmigrated, not-yet-created database URL (for tests of database creation). */
export function freshDatabaseUrl(): { url: string; name: string; drop: () => Promise<void> } {
  const serverUrl = inject('databaseUrl');
  const name = `fs_t_${randomBytes(6).toString('hex')}`;
  return {
    url: withDatabase(serverUrl, name),
    name,
    drop: () => adminQuery(serverUrl, `drop database if exists ${quoteIdent(name)} with (force)`),
  };
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
