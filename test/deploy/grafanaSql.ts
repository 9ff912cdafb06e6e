/**
 * The Grafana macros the business dashboard's SQL uses, expanded as Grafana's Postgres data source
 * does for a time range, so a test can run the dashboard's queries as they are sent. Any other
 * macro or variable is an error: a query the test cannot expand is a query it has not checked.
 */
export interface TimeRange {
  from: Date;
  to: Date;
}

export function expandGrafanaSql(sql: string, range: TimeRange): string {
  const from = `'${range.from.toISOString()}'`;
  const to = `'${range.to.toISOString()}'`;
  const expanded = sql
    .replace(
      /\$__timeFilter\(([^()]+)\)/g,
      (_, column: string) => `${column.trim()} BETWEEN ${from} AND ${to}`,
    )
    .replace(/\$__timeFrom\(\)/g, `${from}::timestamptz`)
    .replace(/\$__timeTo\(\)/g, `${to}::timestamptz`);
  const left = expanded.match(/\$\w+/);
  if (left) throw new Error(`no expansion for ${left[0]} in: ${sql}`);
  return expanded;
}
