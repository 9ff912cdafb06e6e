import type { SimTruth } from '../truth.ts';
import type { PoisonReport, PoisonStream } from './types.ts';

/**
 * What a warehouse synced from the poison world must hold, for tests that compare it with the truth:
 * the truth, except the records a correct sync cannot land (quarantined ones, details still broken),
 * with the text of repaired records repaired the way Postgres can store it.
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as a warehouse stores it: NUL removed, each lone surrogate replaced by U+FFFD. */
export function repairText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/** A copy of a JSON value with every string (keys included) repaired. */
export function repairStrings<T>(value: T): T {
  if (typeof value === 'string') return repairText(value) as T;
  if (Array.isArray(value)) return value.map((v) => repairStrings(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [repairText(k), repairStrings(v)])) as T;
}

/**
 * Keys (as the report writes them) of the records that a correct sync leaves unequal to the truth
 * at `now` (ms): the quarantined ones, and detail re-fetches whose answer has not healed yet.
 */
export function excludedKeys(report: PoisonReport, now: number): Record<PoisonStream, Set<string>> {
  const out = emptyKeySets();
  for (const r of report.records) {
    const healed = r.expected === 'detail-refetch' && r.until !== undefined && Date.parse(r.until) <= now;
    if (r.expected !== 'repaired' && !healed) out[r.stream].add(r.key);
  }
  return out;
}

type Keyed = { collection: keyof SimTruth; key: (scope: string, record: Record<string, unknown>) => string };
const header = (r: Record<string, unknown>) => (r.header ?? {}) as Record<string, unknown>;

/** Where each stream's records sit in the truth, and their key as the report writes it. */
const COLLECTIONS: Record<PoisonStream, Keyed[]> = {
  shipments: [{ collection: 'shipmentUpdates', key: (_, r) => String(header(r).containerId) }],
  transfers_in: [{ collection: 'transfersIn', key: (s, r) => `${s}/${String(header(r).orderNumber)}` }],
  products: [
    { collection: 'productDetails', key: (s, r) => `${s}/${String(header(r).sku)}` },
    { collection: 'ownedProducts', key: (s, r) => `${s}/${String(r.sku)}` },
  ],
  orders: [{ collection: 'orderDetails', key: (s, r) => `${s}/${String(header(r).orderNumber)}` }],
  inventory: [
    {
      collection: 'ownedInventory',
      key: (s, r) => [s, r.warehouseCode, r.subInventoryCode, r.sku].map(String).join('/'),
    },
  ],
  invoices: [{ collection: 'invoices', key: (_, r) => String(r.invoiceNumber) }],
  returns: [{ collection: 'returns', key: (_, r) => String(r.shipReturnId) }],
};

/**
 * The truth as a correct sync of the poison world stores it at the truth's `now`: records of
 * `excludedKeys` left out, records expected 'repaired' with their strings repaired. Everything else
 * is the truth unchanged (so deep operations on the result are safe: the deeply nested record is out).
 */
export function truthAsSynced(truth: SimTruth, report: PoisonReport): SimTruth {
  const excluded = excludedKeys(report, Date.parse(truth.now));
  const repaired = emptyKeySets();
  for (const r of report.records) if (r.expected === 'repaired') repaired[r.stream].add(r.key);
  const out: SimTruth = { ...truth };
  for (const [stream, places] of Object.entries(COLLECTIONS) as Array<[PoisonStream, Keyed[]]>) {
    for (const { collection, key } of places) {
      const byScope = truth[collection] as Record<string, Array<Record<string, unknown>>>;
      const next: Record<string, Array<Record<string, unknown>>> = {};
      for (const [scope, records] of Object.entries(byScope)) {
        next[scope] = records
          .filter((r) => !excluded[stream].has(key(scope, r)))
          .map((r) => (repaired[stream].has(key(scope, r)) ? repairStrings(r) : r));
      }
      Object.assign(out, { [collection]: next });
    }
  }
  return out;
}

function emptyKeySets(): Record<PoisonStream, Set<string>> {
  return {
    shipments: new Set(),
    transfers_in: new Set(),
    products: new Set(),
    orders: new Set(),
    inventory: new Set(),
    invoices: new Set(),
    returns: new Set(),
  };
}
