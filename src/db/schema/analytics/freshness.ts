import { sql } from 'drizzle-orm';
import { integer, text } from 'drizzle-orm/pg-core';
import { STREAM_COVERAGE_SQL } from '../../../analytics/sourceCoverage.ts';
import { ANALYTICS_RELATIONS } from '../../../analytics/views.ts';
import { analyticsSchema, tz } from '../columns.ts';

const array = (values: readonly string[]) =>
  values.length === 0 ? 'ARRAY[]::text[]' : `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;

/** The catalogue of src/analytics/views.ts as SQL rows: relation, maintained tables, live streams. */
const CATALOGUE = ANALYTICS_RELATIONS.map((r) =>
  r.kind === 'maintained'
    ? `('${r.relation}', ${array([r.relation])}, ${array([])})`
    : `('${r.relation}', ${array(r.models)}, ${array(r.streams)})`,
).join(',\n           ');

/**
 * How fresh each relation of schema analytics is, for readers (who cannot read schema sync): when
 * it was last brought up to date with what the worker stored, and the upstream time its data is
 * complete up to. A maintained table is as of its last refresh (sync.analytics_refreshes); a view
 * as of the maintained tables it reads and, for the synced tables it reads itself, now.
 */
export const freshness = analyticsSchema
  .view('freshness', {
    relation: text('relation'),
    refreshedAsOf: tz('refreshed_as_of'),
    sourceDataAsOf: tz('source_data_as_of'),
    lagSeconds: integer('lag_seconds'),
  })
  .as(
    sql.raw(`
    WITH coverage AS (${STREAM_COVERAGE_SQL}),
    catalogue (relation, models, streams) AS (
    VALUES ${CATALOGUE}),
    known AS (
      SELECT c.relation,
             CASE WHEN cardinality(c.models) = 0 THEN now() ELSE m.refreshed_as_of END AS refreshed_as_of,
             CASE WHEN (cardinality(c.models) > 0 AND m.source_data_as_of IS NULL)
                    OR (cardinality(c.streams) > 0 AND s.as_of IS NULL) THEN NULL
                  ELSE least(m.source_data_as_of, s.as_of) END AS source_data_as_of
        FROM catalogue c
       CROSS JOIN LATERAL (
         SELECT CASE WHEN count(a.refreshed_as_of) < cardinality(c.models) THEN NULL
                     ELSE min(a.refreshed_as_of) END AS refreshed_as_of,
                CASE WHEN count(a.source_data_as_of) < cardinality(c.models) THEN NULL
                     ELSE min(a.source_data_as_of) END AS source_data_as_of
           FROM sync.analytics_refreshes a WHERE a.relation = ANY (c.models)) m
       CROSS JOIN LATERAL (
         SELECT CASE WHEN count(v.as_of) < cardinality(c.streams) THEN NULL ELSE min(v.as_of) END AS as_of
           FROM coverage v WHERE v.stream = ANY (c.streams)) s)
    SELECT relation, refreshed_as_of, source_data_as_of,
           greatest(floor(extract(epoch FROM now() - source_data_as_of)), 0)::integer AS lag_seconds
      FROM known`),
  );
