const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The series names a PromQL expression reads (enough of PromQL for our dashboard and alert rules):
 * strings, label matchers, grouping clauses, ranges and templating are removed; what remains that is
 * an identifier, not a function call and not a keyword, is a metric name.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\(?))/g)) {
    const [name, call] = [match[0], match[1]];
    if (call === '(' || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

/** Metric families of a Prometheus text exposition, by name, with their type (`# TYPE` lines). */
export function exportedFamilies(exposition: string): Map<string, string> {
  const families = new Map<string, string>();
  for (const line of exposition.split('\n')) {
    const match = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (match) families.set(match[1]!, match[2]!);
  }
  return families;
}

/** Whether `name` is a series of an exported family (a histogram's _bucket, _sum and _count included). */
export function isExported(name: string, families: ReadonlyMap<string, string>): boolean {
  if (families.has(name)) return true;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return base !== name && ['histogram', 'summary'].includes(families.get(base) ?? '');
}
