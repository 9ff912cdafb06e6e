/**
 * Upstream values Postgres cannot store, caught before a record is parsed: text (values and object
 * keys) holding NUL, which neither `text` nor `jsonb` accepts, or lone UTF-16 surrogates, which are
 * not valid UTF-8; and nesting so deep that a recursive step later on (zod, JSON.stringify while a
 * COPY is open, jsonb input) overflows its stack. Text is repaired so the record still lands; a
 * record nested too deep is refused whole.
 */

/**
 * How deep a record may nest. Real records nest four levels at most (detail > lines > components >
 * members); 32 leaves room for members the spec does not detail, while keeping every recursive step
 * after this one (zod, JSON.stringify, the diff, Postgres's jsonb parser) far from its stack limit.
 */
export const MAX_RECORD_DEPTH = 32;

/** How much of a refused record is kept, so an operator can recognise it in sync.rejected_records. */
const PREVIEW_CHARS = 500;

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what Postgres cannot store.
const NEEDS_REPAIR = /[\u0000\uD800-\uDFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A record made storable: the same value when nothing needed repair, else a repaired copy. */
export type Storable =
  | { ok: true; value: unknown; repairs: string | undefined }
  | { ok: false; reason: string; raw: unknown };

/** Paths of the text that was repaired, by kind of repair. */
interface Found {
  nul: string[];
  surrogate: string[];
}

class TooDeep extends Error {}

/**
 * Makes one record storable: every string and object key loses its NULs and has lone surrogates
 * replaced by U+FFFD (`repairs` then names each changed path); a record nested deeper than
 * MAX_RECORD_DEPTH is refused, its `raw` a small storable summary instead of the record.
 */
export function makeStorable(record: unknown): Storable {
  const found: Found = { nul: [], surrogate: [] };
  try {
    const value = walk(record, [], 1, found);
    return { ok: true, value, repairs: describeRepairs(found) };
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    const unstorable = `nested deeper than ${MAX_RECORD_DEPTH} levels`;
    return {
      ok: false,
      reason: `${unstorable}: refused without parsing`,
      raw: { ...topLevelScalars(record), unstorable, preview: previewOf(record) },
    };
  }
}

/** Text as Postgres can store it: NULs removed, lone surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  if (!NEEDS_REPAIR.test(text)) return text;
  return text.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** `NUL removed from a, b; lone surrogate replaced in c`, or undefined when nothing changed. */
function describeRepairs(found: Found): string | undefined {
  const parts: string[] = [];
  if (found.nul.length > 0) parts.push(`NUL removed from ${found.nul.join(', ')}`);
  if (found.surrogate.length > 0) parts.push(`lone surrogate replaced in ${found.surrogate.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Repairs `value` (depth: its own level, the record being 1); `path` is a stack, joined only on a repair. */
function walk(value: unknown, path: string[], depth: number, found: Found): unknown {
  if (typeof value === 'string') return repairText(value, path, found);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_RECORD_DEPTH) throw new TooDeep();
  return Array.isArray(value) ? walkArray(value, path, depth, found) : walkObject(value, path, depth, found);
}

function walkArray(items: unknown[], path: string[], depth: number, found: Found): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    path.push(String(i));
    const repaired = walk(items[i], path, depth + 1, found);
    path.pop();
    if (repaired !== items[i]) {
      out ??= items.slice();
      out[i] = repaired;
    }
  }
  return out ?? items;
}

function walkObject(object: object, path: string[], depth: number, found: Found): object {
  const members = object as Record<string, unknown>;
  const keys = Object.keys(members);
  // Copied only from the first repair on: most records need none and are returned as they are.
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const member = members[key];
    const name = NEEDS_REPAIR.test(key) ? repairKey(key, members, out, path, found) : key;
    path.push(name);
    const repaired = walk(member, path, depth + 1, found);
    path.pop();
    if (out === undefined && (name !== key || repaired !== member)) {
      out = {};
      for (const earlier of keys.slice(0, i)) setOwn(out, earlier, members[earlier]);
    }
    if (out !== undefined) setOwn(out, name, repaired);
  }
  return out ?? object;
}

/** A repaired key; two keys that differ only by what was removed both keep their value. */
function repairKey(
  key: string,
  members: Record<string, unknown>,
  out: Record<string, unknown> | undefined,
  path: string[],
  found: Found,
): string {
  let name = storableText(key);
  if (name === key) return key;
  recordRepair(key, [...path, `${name} (key)`], found);
  while (Object.hasOwn(members, name) || (out !== undefined && Object.hasOwn(out, name)))
    name = `${name}\uFFFD`;
  return name;
}

/** Sets an own member; defineProperty for "__proto__" (a key JSON.parse allows), which `=` would make the prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

function repairText(text: string, path: string[], found: Found): string {
  const repaired = storableText(text);
  if (repaired !== text) recordRepair(text, path, found);
  return repaired;
}

function recordRepair(original: string, path: string[], found: Found): void {
  const where = path.length > 0 ? path.join('.') : '(record)';
  if (original.includes('\u0000')) found.nul.push(where);
  if (original.replace(NUL, '').match(LONE_SURROGATE)) found.surrogate.push(where);
}

/**
 * The record's own top-level scalar members (its identity: ids, numbers, dates), strings made
 * storable and shortened, so that a refused record can still be told apart and keyed.
 */
function topLevelScalars(record: unknown): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return out;
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'string') out[storableText(key)] = storableText(value.slice(0, 200));
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null)
      out[storableText(key)] = Number.isFinite(value) || typeof value !== 'number' ? value : null;
  }
  return out;
}

/**
 * The first PREVIEW_CHARS characters of a record as JSON-like text, read only as deep as
 * MAX_RECORD_DEPTH (JSON.stringify would recurse through all of it), then made storable (the cut
 * may split a surrogate pair).
 */
function previewOf(record: unknown): string {
  let text = '';
  const full = () => text.length >= PREVIEW_CHARS;
  const visit = (value: unknown, depth: number): void => {
    if (full()) return;
    if (value === null || typeof value !== 'object') {
      text += JSON.stringify(value) ?? 'null';
      return;
    }
    if (depth > MAX_RECORD_DEPTH) {
      text += '…';
      return;
    }
    const isArray = Array.isArray(value);
    text += isArray ? '[' : '{';
    let first = true;
    for (const [key, member] of Object.entries(value)) {
      if (full()) return;
      text += `${first ? '' : ','}${isArray ? '' : `${JSON.stringify(key)}:`}`;
      first = false;
      visit(member, depth + 1);
    }
    text += isArray ? ']' : '}';
  };
  visit(record, 1);
  return storableText(text.slice(0, PREVIEW_CHARS));
}
