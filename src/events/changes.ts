import { stableJson } from '../sync/normalize.ts';
import type { FieldChange } from './types.ts';

/**
 * The fields that differ between two objects, as `{field, from, to}` with dotted paths for the
 * named nested objects (e.g. `header.statusCode`). Arrays and other objects compare as whole values.
 */
export function diffFields(
  previous: Record<string, unknown> | null,
  current: Record<string, unknown>,
  nested: readonly string[] = [],
  prefix = '',
): FieldChange[] {
  const changes: FieldChange[] = [];
  const keys = new Set([...Object.keys(previous ?? {}), ...Object.keys(current)]);
  for (const key of [...keys].sort()) {
    const from = previous ? (previous[key] ?? null) : null;
    const to = current[key] ?? null;
    if (nested.includes(key) && isObject(from) && isObject(to)) {
      changes.push(...diffFields(from, to, [], `${prefix}${key}.`));
    } else if (stableJson(from) !== stableJson(to)) {
      changes.push({ field: `${prefix}${key}`, from, to });
    }
  }
  return changes;
}

/** Only the changes of the given fields (dotted paths). */
export function pickChanges(changes: FieldChange[], fields: readonly string[]): FieldChange[] {
  return changes.filter((change) => fields.includes(change.field));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
