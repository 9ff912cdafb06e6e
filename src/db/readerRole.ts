import pg from 'pg';
import { cliCommand } from '../runtime/invocation.ts';
import { MIGRATION_LOCK_KEY } from './migrationLock.ts';
import { type ReaderMarks, readerMarks } from './pii/marking.ts';
import {
  assertOnlyReader,
  assertReadsNoPersonalData,
  assertReadsOnly,
  ensureRole,
  ReaderRoleError,
} from './reader/checks.ts';
import { dropDefaultPrivileges, grantTargets, revokeBeyond } from './reader/privileges.ts';
import { type Suspect, screenTargets } from './reader/screen.ts';
import {
  ANALYTICS_SCHEMA,
  catalogRelations,
  fullTargets,
  MASKED_SCHEMA,
  markedTargets,
  READER_SCHEMA,
  READER_SCHEMAS,
  type ReadTarget,
} from './reader/targets.ts';
import { roleNameProblem } from './roleName.ts';
import { databaseNameOf, effectiveUrl } from './urls.ts';

export { ReaderRoleError } from './reader/checks.ts';
export type { Suspect } from './reader/screen.ts';
export { ANALYTICS_SCHEMA, MASKED_SCHEMA, READER_SCHEMA, READER_SCHEMAS } from './reader/targets.ts';

/**
 * What a role reads. `masked` (FULFILLMENT_READER_ROLE): what src/db/pii/marks/ marks, column by
 * column: the tables of fulfillment through their masking views (fulfillment_masked), the views of
 * fulfillment and the relations of analytics as they are. `full` (FULFILLMENT_FULL_READER_ROLE):
 * every relation of fulfillment, fulfillment_masked and analytics, personal data in clear.
 */
export type ReaderAccess = 'masked' | 'full';

/** What `grantReadAccess` did. */
export interface ReaderGrant {
  role: string;
  access: ReaderAccess;
  /** Whether the role was created (NOLOGIN) by this call. */
  created: boolean;
  /** Relations the role can now read, per schema, by kind. */
  relations: Record<string, { tables: number; views: number }>;
  /** Columns it can now read. */
  columns: number;
  /** Relations and columns of the reader schemas that are not marked, so closed to a masked reader. */
  unmarked: string[];
  /** Columns kept from a masked reader because values in them look personal (then an error follows). */
  suspects: Suspect[];
}

/** Some of what was marked was withheld: values in it look personal. The grant of the rest stands. */
export class PersonalDataFound extends ReaderRoleError {
  override name = 'PersonalDataFound';
  constructor(readonly grant: ReaderGrant) {
    const shown = grant.suspects.slice(0, 3).map((s) => `${s.what}: ${s.why}`);
    const more = grant.suspects.length > 3 ? `; and ${grant.suspects.length - 3} more` : '';
    super(
      `role "${grant.role}" was not granted ${grant.suspects.length} marked column(s) whose values look personal (${shown.join('; ')}${more}): mark them personal or closed (src/db/pii/marks/) or fix the data, then grant again`,
    );
  }
}

/**
 * Makes `role` a reader of the warehouse and nothing more, in steps that never leave it with more
 * than before: (1) reads what it is to read from the catalog and the marks, and, for a masked
 * reader, a sample of it by value patterns, withholding any column where a value looks personal;
 * (2) in one transaction, creates the role NOLOGIN if missing (refusing a role that could read
 * everything anyway: a superuser, a member of the migrating role, one that reads webhook secrets)
 * and revokes every privilege it holds in fulfillment, fulfillment_masked, analytics and sync
 * beyond that, with every default privilege that would give it relations created later; committed;
 * (3) in another, grants CONNECT, USAGE on the three schemas and SELECT on what it is to read (a
 * masked reader: those columns only, so a column added later stays closed until marked and
 * granted), then checks that it reads nothing else by any path (a role it belongs to, PUBLIC) or
 * grants nothing. Throws `PersonalDataFound` (with the grant) when (1) withheld something. `marks`
 * are src/db/pii/marks/'s (a test adds to them).
 * Idempotent. Run it where migrations run (under their advisory lock): concurrent GRANTs on the same
 * objects can fail with "tuple concurrently updated".
 */
export async function grantReadAccess(
  client: pg.ClientBase,
  role: string,
  access: ReaderAccess = 'masked',
  marks: ReaderMarks = readerMarks(),
): Promise<ReaderGrant> {
  const problem = roleNameProblem(role);
  if (problem) throw new ReaderRoleError(`role name ${problem}`);
  try {
    await assertSchemasExist(client);
    const relations = await catalogRelations(client);
    const planned = access === 'full' ? fullTargets(relations) : markedTargets(relations, marks);
    const screened =
      access === 'full'
        ? { targets: planned.targets, suspects: [] }
        : await screenTargets(client, planned.targets);
    const byColumn = access === 'masked';
    const wanted = { role, targets: screened.targets, byColumn };
    const created = await inTransaction(client, async () => {
      const made = await ensureRole(client, role);
      if (!made) await assertOnlyReader(client, role);
      await revokeBeyond(client, wanted);
      await dropDefaultPrivileges(client, role);
      return made;
    });
    await inTransaction(client, async () => {
      await grantTargets(client, wanted);
      if (byColumn) await assertReadsNoPersonalData(client, role);
      await assertReadsOnly(client, role, screened.targets);
    });
    const grant = describeTargets(
      role,
      access,
      created,
      screened.targets,
      planned.unmarked,
      screened.suspects,
    );
    if (grant.suspects.length > 0) throw new PersonalDataFound(grant);
    return grant;
  } catch (error) {
    if (error instanceof ReaderRoleError) throw error;
    throw new ReaderRoleError(`granting read access to role "${role}" failed: ${firstLine(error)}`, {
      cause: error,
    });
  }
}

async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

function describeTargets(
  role: string,
  access: ReaderAccess,
  created: boolean,
  targets: readonly ReadTarget[],
  unmarked: string[],
  suspects: Suspect[],
): ReaderGrant {
  const relations: ReaderGrant['relations'] = {};
  for (const schema of READER_SCHEMAS) relations[schema] = { tables: 0, views: 0 };
  for (const target of targets) {
    const counts = relations[target.schema] ?? { tables: 0, views: 0 };
    relations[target.schema] = counts;
    if (target.kind === 'v' || target.kind === 'm') counts.views += 1;
    else counts.tables += 1;
  }
  const columns = targets.reduce((sum, t) => sum + t.columns.length, 0);
  return { role, access, created, relations, columns, unmarked, suspects };
}

/**
 * `grantReadAccess` on the database at `url`, under the migrations' advisory lock (a grant racing a
 * migrate or another grant could fail). Never names the URL in an error: it may hold a password.
 */
export async function applyReaderRole(
  configuredUrl: string,
  role: string,
  access: ReaderAccess = 'masked',
): Promise<ReaderGrant> {
  const url = effectiveUrl(configuredUrl);
  const client = new pg.Client({ connectionString: url, application_name: 'fulfillment-sync grant-reader' });
  try {
    await client.connect();
  } catch (error) {
    throw new ReaderRoleError(
      `Cannot connect to database "${databaseNameOf(url)}": check DATABASE_URL (${firstLine(error)}).`,
      { cause: error },
    );
  }
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK_KEY]);
    return await grantReadAccess(client, role, access);
  } finally {
    // Ending the session releases the advisory lock even if the unlock is never sent.
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

/** A one-line summary of a grant, for `migrate` and `grant-reader`. */
export function describeGrant(grant: ReaderGrant): string {
  const role = grant.created ? `created role "${grant.role}" (NOLOGIN)` : `role "${grant.role}"`;
  const masked = grant.relations[MASKED_SCHEMA]?.views ?? 0;
  const views = grant.relations[READER_SCHEMA]?.views ?? 0;
  const analytics = grant.relations[ANALYTICS_SCHEMA] ?? { tables: 0, views: 0 };
  const model = `${ANALYTICS_SCHEMA} (${analytics.tables + analytics.views} relations)`;
  if (grant.access === 'full') {
    const tables = grant.relations[READER_SCHEMA]?.tables ?? 0;
    return `${role} can read schema ${READER_SCHEMA} in full, personal data in clear (${tables} tables, ${views} views), ${MASKED_SCHEMA} (${masked} masking views) and ${model}, and nothing else`;
  }
  const closed =
    grant.unmarked.length === 0
      ? ''
      : `; not marked, so closed to it: ${grant.unmarked.slice(0, 5).join(', ')}${grant.unmarked.length > 5 ? ` and ${grant.unmarked.length - 5} more` : ''}`;
  return `${role} can read ${MASKED_SCHEMA} (${masked} masking views: the tables of ${READER_SCHEMA}, personal data masked), ${READER_SCHEMA} (${views} views) and ${model}, ${grant.columns} columns marked readable, and nothing else${closed}`;
}

async function assertSchemasExist(client: pg.ClientBase): Promise<void> {
  const found = await client.query<{ name: string }>(
    'SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY ($1)',
    [[...READER_SCHEMAS]],
  );
  const missing = READER_SCHEMAS.filter((s) => !found.rows.some((r) => r.name === s));
  if (missing.length > 0) {
    throw new ReaderRoleError(
      `schema ${missing[0]} does not exist in this database: run \`${cliCommand('migrate')}\` first`,
    );
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
