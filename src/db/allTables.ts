import { is } from 'drizzle-orm';
import { PgTable, PgView } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

const exported = Object.values(schema as Record<string, unknown>);

/** Every table of the warehouse schema (both Postgres schemas), for tooling and tests. */
export const ALL_TABLES: readonly PgTable[] = exported.filter((value: unknown): value is PgTable =>
  is(value, PgTable),
);

/** Every view of the warehouse schema (src/db/schema/views.ts). */
export const ALL_VIEWS: readonly PgView[] = exported.filter((value: unknown): value is PgView =>
  is(value, PgView),
);

/** Tables and views: what carries a COMMENT ON and appears in the data dictionary. */
export const ALL_RELATIONS: readonly (PgTable | PgView)[] = [...ALL_TABLES, ...ALL_VIEWS];
