import { readFileSync } from 'node:fs';

/**
 * docs/analytics.md, the analyst's guide, from the repository root (where tests and benchmarks
 * run): its example queries are tested and benchmarked.
 */
export const GUIDE_FILE = 'docs/analytics.md';

/** One question of the guide: its id (the `<!-- query: id -->` marker) and its SQL. */
export interface GuideQuery {
  id: string;
  sql: string;
}

/**
 * The example queries of the guide, in order: each ```sql block right after a
 * `<!-- query: id -->` marker. The test and the benchmark run exactly what the guide shows.
 */
export function parseGuideQueries(markdown: string): GuideQuery[] {
  const found: GuideQuery[] = [];
  for (const match of markdown.matchAll(/<!-- query: ([a-z0-9-]+) -->\s*```sql\n([\s\S]*?)```/g)) {
    found.push({ id: match[1]!, sql: match[2]!.trim().replace(/;$/, '') });
  }
  return found;
}

/** The guide's queries read from docs/analytics.md. */
export function guideQueries(file = GUIDE_FILE): GuideQuery[] {
  return parseGuideQueries(readFileSync(file, 'utf8'));
}
