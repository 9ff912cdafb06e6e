import type { OperationId } from '../../api/operations.ts';

/** Options of the poison scenario (`startSimulator({scenario: 'poison', poison: {...}})`). */
export interface PoisonOptions {
  /** Share of /api/v1 calls answered HTTP 429 "Too many requests" (default 0.03). */
  rateLimitRate?: number;
  /** Retry-After of those 429s, seconds (default 1). */
  retryAfterSeconds?: number;
  /**
   * Only these poisons (default: all), e.g. to test one engine fix before the others land. The
   * records chosen do not depend on it; rate limiting is set by `rateLimitRate` alone.
   */
  kinds?: PoisonKind[];
}

/** What is wrong with a poisoned record or answer. */
export type PoisonKind =
  | 'nul'
  | 'lone-surrogate'
  | 'malformed-detail'
  | 'missing-detail'
  | 'detail-503'
  | 'wrong-type'
  | 'int-overflow'
  | 'oversized-key'
  | 'deep-nesting';

/** Every kind, in the order the report lists them. */
export const POISON_KINDS: readonly PoisonKind[] = [
  'nul',
  'lone-surrogate',
  'malformed-detail',
  'missing-detail',
  'detail-503',
  'wrong-type',
  'int-overflow',
  'oversized-key',
  'deep-nesting',
];

/** The engine's stream a poisoned record belongs to. */
export type PoisonStream =
  | 'shipments'
  | 'transfers_in'
  | 'products'
  | 'orders'
  | 'inventory'
  | 'invoices'
  | 'returns';

/**
 * What a correct sync makes of the record:
 * - repaired: it lands with the text repaired (NUL removed, a lone surrogate replaced by U+FFFD),
 *   and `sync.rejected_records` says what was changed;
 * - quarantined: it (or its detail) never lands; it is in `sync.rejected_records` with its reason,
 *   and what was stored before it went bad stays as it was;
 * - detail-refetch: the list row lands, the detail is fetched again on later runs; once the
 *   answer heals (`until`) the record lands whole and equals the truth.
 */
export type PoisonExpectation = 'repaired' | 'quarantined' | 'detail-refetch';

/** One poisoned record, as `GET /_sim/poison` lists it. */
export interface PoisonedRecord {
  operation: OperationId;
  stream: PoisonStream;
  /** Supplier id or account number the record belongs to. */
  scope: string;
  /**
   * The record's primary key as the engine stores it, columns joined with '/': container id,
   * `supplierId/orderNumber`, `supplierId/sku`, `accountNumber/orderNumber`,
   * `supplierId/warehouseCode/subInventoryCode/sku`, invoice number (as served), ship-return id.
   */
  key: string;
  kind: PoisonKind;
  expected: PoisonExpectation;
  /** Where the poison sits in the answer, e.g. `header.carrierName`. */
  field: string;
  /**
   * True when the value is the record's data (then `GET /_sim/truth` holds it too); false when only
   * the answer of the operation is broken (the truth holds the record's real detail).
   */
  inTruth: boolean;
  /** When the poison is first served (ISO UTC). */
  from: string;
  /** When the answer heals (ISO UTC); absent: never. */
  until?: string;
  /** The list row's status move while the detail is broken (malformed-detail only). */
  listRowChangesAt?: string;
  /**
   * The SKU of the same warehouse that really vanishes from the snapshot while this row is
   * wrong-typed (wrong-type only): its key, when it drops out and when it is restocked.
   */
  vanishing?: { key: string; vanishesAt: string; restockedAt: string };
}

/** What `GET /_sim/poison` answers. */
export interface PoisonReport {
  scenario: 'poison';
  /** Supplier and account that hold every poisoned record. */
  supplierId: string;
  accountNumber: string;
  rateLimit: { rate: number; retryAfterSeconds: number; message: string; answered: number };
  /** Poisons already served (their `from` is not after now). */
  records: PoisonedRecord[];
  /** Poisons whose record is chosen but not served yet (their `from` is after now). */
  scheduled: PoisonedRecord[];
  /** Kinds whose record does not exist yet (e.g. no return opened since the start). */
  pending: PoisonKind[];
}
