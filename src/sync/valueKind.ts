/**
 * How the engine compares and sends a column's values, read from its SQL type. A leaf module:
 * columns.ts (table info), diff.ts (comparison) and normalize.ts (canonical forms) all build on it.
 */

/** The kind of comparison/serialisation a column needs. */
export type ValueKind =
  | 'text'
  | 'int'
  | 'bigint'
  | 'numeric'
  | 'float'
  | 'bool'
  | 'timestamp'
  | 'date'
  | 'json';

/** Maps an SQL type to how its values are compared and sent. */
export function valueKind(sqlType: string): ValueKind {
  const t = sqlType.toLowerCase();
  if (t.startsWith('timestamp')) return 'timestamp';
  if (t === 'date') return 'date';
  if (t.startsWith('json')) return 'json';
  if (t === 'boolean') return 'bool';
  if (t === 'bigint' || t === 'bigserial') return 'bigint';
  if (t === 'integer' || t === 'smallint' || t === 'serial') return 'int';
  if (t.startsWith('numeric') || t.startsWith('decimal')) return 'numeric';
  if (t === 'real' || t.startsWith('double')) return 'float';
  return 'text';
}
