import { EVENT_TYPES } from '../../events/types.ts';
import { STREAM_SCOPE_KIND } from '../../worker/streamScopes.ts';

/**
 * The one rule of "does this endpoint want this event", used by the relay's fan-out, `webhooks
 * replay` and `webhooks recover`: in TypeScript (`endpointWants`) and, for queries that choose
 * events in Postgres, as an SQL condition built from the same definitions (`endpointWantsSql`;
 * test/webhooks/endpointFilter.test.ts holds that both decide alike). Pure.
 *
 * - Types: empty wants every type; otherwise the event's type is listed, or a listed family
 *   pattern (`shipment.*`: the part before `*`, dot included, begins the type) covers it. Patterns
 *   are stored as given, so a type added to a family later is wanted too.
 * - Scopes (Svix's channels): with no account and no supplier listed, every event; otherwise only
 *   events of a listed account (an account stream's event whose scope is that account number) or
 *   of a listed supplier (likewise for the supplier streams). An event without a scope, or of a
 *   stream with no known scope kind, belongs to no account or supplier: a filtered endpoint never
 *   gets it. Supplier ids and account numbers are separate namespaces upstream (the same string
 *   may name one of each), hence two lists and the stream deciding which one an event's scope is.
 */

/** What the rule reads of an endpoint. */
export interface EndpointFilter {
  /** Event types or family patterns (`shipment.*`); empty: every type. */
  eventTypes: readonly string[];
  /** Only events of these accounts (account streams) ... */
  accountNumbers: readonly string[];
  /** ... or of these suppliers (supplier streams); both empty: every scope. */
  supplierIds: readonly string[];
}

/** What the rule reads of an event (sync.events type, stream, scope). */
export interface EventRouting {
  type: string;
  stream: string | null;
  scope: string | null;
}

/** Whether an endpoint wants an event: its types cover the event's type, and its scopes its scope. */
export function endpointWants(endpoint: EndpointFilter, event: EventRouting): boolean {
  return typesCover(endpoint.eventTypes, event.type) && scopesCover(endpoint, event);
}

/** Whether a list of types and patterns covers a type (empty: every type). */
export function typesCover(types: readonly string[], type: string): boolean {
  return types.length === 0 || types.some((pattern) => patternMatches(pattern, type));
}

/** A family pattern ends with this: `shipment.*`. */
const FAMILY_SUFFIX = '.*';

/** Whether one listed type or family pattern matches a type. */
export function patternMatches(pattern: string, type: string): boolean {
  if (pattern === type) return true;
  return pattern.endsWith(FAMILY_SUFFIX) && type.startsWith(pattern.slice(0, -1));
}

function scopesCover(endpoint: EndpointFilter, event: EventRouting): boolean {
  if (endpoint.accountNumbers.length === 0 && endpoint.supplierIds.length === 0) return true;
  if (event.scope === null || event.stream === null) return false;
  const kind = STREAM_SCOPE_KIND[event.stream as keyof typeof STREAM_SCOPE_KIND];
  if (kind === 'account') return endpoint.accountNumbers.includes(event.scope);
  if (kind === 'supplier') return endpoint.supplierIds.includes(event.scope);
  return false;
}

/** The streams whose scope is of one kind, in a stable order. */
export function streamsScopedBy(kind: 'account' | 'supplier'): string[] {
  return Object.entries(STREAM_SCOPE_KIND)
    .filter(([, scopeKind]) => scopeKind === kind)
    .map(([stream]) => stream)
    .sort();
}

/** SQL expressions (columns or parameters, cast to text[]) of an endpoint's filter. */
export interface EndpointFilterSql {
  eventTypes: string;
  accountNumbers: string;
  supplierIds: string;
}

/**
 * `endpointWants` as an SQL condition on the sync.events row aliased `event` (its type, stream and
 * scope columns), for an endpoint given as SQL expressions: columns of sync.webhook_endpoints, or
 * query parameters such as `$5::text[]`.
 */
export function endpointWantsSql(endpoint: EndpointFilterSql, event: string): string {
  const types = `(cardinality(${endpoint.eventTypes}) = 0 OR EXISTS (
      SELECT 1 FROM unnest(${endpoint.eventTypes}) AS wanted(pattern)
       WHERE wanted.pattern = ${event}.type
          OR (right(wanted.pattern, ${FAMILY_SUFFIX.length}) = '${FAMILY_SUFFIX}'
              AND starts_with(${event}.type, left(wanted.pattern, -1)))))`;
  const scopes = `((cardinality(${endpoint.accountNumbers}) = 0 AND cardinality(${endpoint.supplierIds}) = 0)
      OR (${event}.stream = ANY(${sqlTextArray(streamsScopedBy('account'))}) AND ${event}.scope = ANY(${endpoint.accountNumbers}))
      OR (${event}.stream = ANY(${sqlTextArray(streamsScopedBy('supplier'))}) AND ${event}.scope = ANY(${endpoint.supplierIds})))`;
  // Never NULL (an event without a stream or scope): a plain false, as endpointWants answers.
  return `coalesce(${types} AND ${scopes}, false)`;
}

/** A constant list of stream names as an SQL text[] literal (names are [a-z_], checked). */
function sqlTextArray(values: readonly string[]): string {
  for (const value of values) {
    if (!/^[a-z_]+$/.test(value)) throw new Error(`not a stream name: ${value}`);
  }
  return `ARRAY[${values.map((value) => `'${value}'`).join(', ')}]::text[]`;
}

/** An unknown event type or a pattern that matches none in `--types`. */
export class UnknownEventTypeError extends Error {
  override name = 'UnknownEventTypeError';
}

/** The families a pattern may name: `shipment.*`, `order.*`, ... */
export function eventFamilies(): string[] {
  return [...new Set(EVENT_TYPES.map((type) => `${type.slice(0, type.indexOf('.'))}${FAMILY_SUFFIX}`))];
}

/**
 * Checks a type filter against the catalogue: each entry is a known type, or a family pattern
 * (`shipment.*`: a `*` only as the whole last part) matching at least one known type. Empty means
 * every type. Returns the entries as given, without repeats.
 */
export function validateEventTypes(types: readonly string[]): string[] {
  const known = EVENT_TYPES as readonly string[];
  const bad = types.filter((entry) =>
    entry.includes('*')
      ? !isFamilyPattern(entry) || !known.some((type) => patternMatches(entry, type))
      : !known.includes(entry),
  );
  if (bad.length > 0) {
    throw new UnknownEventTypeError(
      `Unknown event type(s) or pattern(s): ${bad.join(', ')}. Known types: ${EVENT_TYPES.join(', ')}; patterns: ${eventFamilies().join(', ')}.`,
    );
  }
  return [...new Set(types)];
}

function isFamilyPattern(entry: string): boolean {
  return entry.endsWith(FAMILY_SUFFIX) && entry.indexOf('*') === entry.length - 1 && entry.length > 2;
}

/** A bad `--accounts` or `--suppliers` list. */
export class ScopeFilterError extends Error {
  override name = 'ScopeFilterError';
}

/** Most ids one list may hold: a filter, not a directory. */
export const MAX_SCOPE_IDS = 1000;

/**
 * Checks an account-number or supplier-id list: each id non-empty, without spaces or commas, at
 * most 200 characters; at most MAX_SCOPE_IDS. Returns them without repeats, in the given order.
 */
export function validateScopeIds(ids: readonly string[], flag: '--accounts' | '--suppliers'): string[] {
  const bad = ids.filter((id) => id.length === 0 || id.length > 200 || /[\s,]/.test(id));
  if (bad.length > 0) {
    throw new ScopeFilterError(
      `${flag}: not an id: ${bad.map((id) => JSON.stringify(id)).join(', ')} (give a comma list of ids, without spaces).`,
    );
  }
  const unique = [...new Set(ids)];
  if (unique.length > MAX_SCOPE_IDS) {
    throw new ScopeFilterError(`${flag}: ${unique.length} ids; at most ${MAX_SCOPE_IDS}.`);
  }
  return unique;
}
