import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS_FOLDER, runMigrations } from '../../src/db/migrate.ts';
import { quoteIdent, withDatabase } from '../../src/db/urls.ts';

/**
 * Two advisory locks on the server guard the template database shared by concurrent test runs:
 * BUILD (exclusive, held briefly) serialises building and dropping it; USE (shared, held for a whole
 * run) tells a finishing run that another run still clones from it, so it must not be dropped.
 */
const BUILD_LOCK = 'fulfillment-sync:test-template:build';
const USE_LOCK = 'fulfillment-sync:test-template:use';

export interface TemplateDatabase {
  name: string;
  /** Releases this run's use of the template; when no other run uses one, drops every template. */
  release: () => Promise<void>;
}

/** `fs_tpl_` + a hash of the migrations folder contents: a changed schema gets a new template. */
export function templateDatabaseName(folder = MIGRATIONS_FOLDER): string {
  const hash = createHash('sha256');
  for (const file of listFiles(folder)) {
    hash.update(path.relative(folder, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return `fs_tpl_${hash.digest('hex').slice(0, 16)}`;
}

/**
 * Makes sure a migrated template database exists (building it once per schema, safe against
 * parallel runs) and holds it in use until `release`.
 */
export async function prepareTemplateDatabase(adminUrl: string): Promise<TemplateDatabase> {
  const name = templateDatabaseName();
  const admin = new pg.Client({ connectionString: adminUrl, application_name: 'fulfillment-sync tests' });
  await admin.connect();
  try {
    await lock(admin, 'pg_advisory_lock', BUILD_LOCK);
    try {
      if (!(await isReadyTemplate(admin, name))) await buildTemplate(admin, adminUrl, name);
      await lock(admin, 'pg_advisory_lock_shared', USE_LOCK);
    } finally {
      await lock(admin, 'pg_advisory_unlock', BUILD_LOCK);
    }
  } catch (error) {
    await admin.end().catch(() => {});
    throw error;
  }
  return { name, release: () => releaseTemplate(admin) };
}

async function releaseTemplate(admin: pg.Client): Promise<void> {
  try {
    await lock(admin, 'pg_advisory_lock', BUILD_LOCK);
    await lock(admin, 'pg_advisory_unlock_shared', USE_LOCK);
    const free = await admin.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [
      USE_LOCK,
    ]);
    if (free.rows[0]?.ok) {
      // No run uses any template now: drop ours and those of older schemas.
      const all = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like 'fs\\_tpl\\_%'",
      );
      for (const row of all.rows) await dropTemplate(admin, row.datname);
      // Clones left behind by test files that crashed before close().
      const clones = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like 'fs\\_t\\_%'",
      );
      for (const row of clones.rows)
        await admin.query(`drop database if exists ${quoteIdent(row.datname)} with (force)`);
      await lock(admin, 'pg_advisory_unlock', USE_LOCK);
    }
    await lock(admin, 'pg_advisory_unlock', BUILD_LOCK);
  } finally {
    await admin.end().catch(() => {});
  }
}

// A template is ready once marked IS_TEMPLATE, which happens only after its migrations succeeded;
// one left half-built by a crashed run is rebuilt.
async function isReadyTemplate(admin: pg.Client, name: string): Promise<boolean> {
  const found = await admin.query<{ datistemplate: boolean }>(
    'select datistemplate from pg_database where datname = $1',
    [name],
  );
  return found.rows[0]?.datistemplate === true;
}

async function buildTemplate(admin: pg.Client, adminUrl: string, name: string): Promise<void> {
  await dropTemplate(admin, name);
  await admin.query(`create database ${quoteIdent(name)}`);
  await runMigrations(withDatabase(adminUrl, name));
  await admin.query(`alter database ${quoteIdent(name)} with is_template true allow_connections false`);
}

async function dropTemplate(admin: pg.Client, name: string): Promise<void> {
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) return;
  await admin.query(`alter database ${quoteIdent(name)} with is_template false`);
  await admin.query(`drop database ${quoteIdent(name)} with (force)`);
}

async function lock(admin: pg.Client, fn: string, key: string): Promise<void> {
  await admin.query(`select ${fn}(hashtext($1))`, [key]);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full) : [full];
    })
    .sort();
}
