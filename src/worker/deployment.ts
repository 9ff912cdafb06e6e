import { createHash } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';

/**
 * A deployment's identity: which database it keeps, as Postgres knows it (the cluster's system
 * identifier, the database's oid and name), never as a URL spells it: two URLs reaching one
 * database (a pooler, an IP instead of a name) are one deployment, and two deployments whose URLs
 * read the same (`postgres://db/fulfillment` in two networks) are two. Deployments that share a
 * Redis database and queue prefix keep their queues under `<prefix>:<identity>`, so a worker only
 * ever takes its own deployment's jobs and reconciles its own schedulers (issue 24 item 4b).
 */

/** What identifies the database a deployment keeps. */
export type DatabaseIdentity = {
  system: string;
  oid: string;
  name: string;
};

/** Reads the identity of the database `db` is connected to (pg_control_system is readable by any role). */
export async function readDatabaseIdentity(db: Queryable): Promise<DatabaseIdentity> {
  const res = await db.query<DatabaseIdentity>(
    `SELECT (SELECT system_identifier::text FROM pg_control_system()) AS system,
            d.oid::text AS oid, d.datname AS name
       FROM pg_database d WHERE d.datname = current_database()`,
  );
  const row = res.rows[0];
  if (!row) throw new Error('could not read the identity of the database');
  return row;
}

/** Pure: a short, stable tag of a database identity (`d` and 12 hex digits); it names no host or role. */
export function deploymentTag(identity: DatabaseIdentity): string {
  const digest = createHash('sha256').update(`${identity.system}/${identity.oid}/${identity.name}`);
  return `d${digest.digest('hex').slice(0, 12)}`;
}

/** The deployment tag of the database `db` is connected to. */
export async function readDeploymentTag(db: Queryable): Promise<string> {
  return deploymentTag(await readDatabaseIdentity(db));
}

/**
 * Pure: where a deployment's queues live under the configured prefix. A prefix with a Cluster hash
 * tag keeps it, so every queue of every deployment stays in one slot.
 */
export function deploymentPrefix(prefix: string, deployment: string): string {
  return `${prefix}:${deployment}`;
}
