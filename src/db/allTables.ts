import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

/** Every table of the warehouse schema (both Postgres schemas), for tooling and tests. */
export const ALL_TABLES: readonly PgTable[] = Object.values(schema as Record<string, unknown>).filter(
  (value: unknown): value is PgTable => is(value, PgTable),
);
