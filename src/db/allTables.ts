import { is } from 'drizzle-orm';
import { PgMaterializedView, PgTable, PgView } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

const exported = Object.values(schema as Record<string, unknown>);

/** A view or a materialized view of the warehouse schema. */
export type AnyView = PgView | PgMaterializedView;

/** Every table of the warehouse schema (all Postgres schemas), for tooling and tests. */
export const ALL_TABLES: readonly PgTable[] = exported.filter((value: unknown): value is PgTable =>
  is(value, PgTable),
);

/** Every view and materialized view of the warehouse schema (views.ts, analytics/). */
export const ALL_VIEWS: readonly AnyView[] = exported.filter(
  (value: unknown): value is AnyView => is(value, PgView) || is(value, PgMaterializedView),
);

/** Tables and views: what carries a COMMENT ON and appears in the data dictionary. */
export const ALL_RELATIONS: readonly (PgTable | AnyView)[] = [...ALL_TABLES, ...ALL_VIEWS];
