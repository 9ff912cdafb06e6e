import { Rng } from './rng.ts';

/** Every failure the simulator can inject. */
export const FAULT_KINDS = [
  'http5xx',
  'rateLimit',
  'slow',
  'timeout',
  'drop',
  'malformedJson',
  'truncated',
  'isSuccessFalse',
  'badRecords',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Ways `badRecords` breaks one record of an answer. */
export const CORRUPTIONS = [
  'wrongType',
  'missingField',
  'overlongString',
  'unknownEnum',
  'dateWithoutOffset',
  'dateUtc',
] as const;
export type Corruption = (typeof CORRUPTIONS)[number];

/**
 * Fault configuration (CLI flags and POST /_sim/faults take the same shape).
 * Each request to /api/v1 draws once from the fault stream: with `rates` {kind: p}, kind k is
 * injected with probability p (the rates of one request must sum to at most 1). `rate` spreads one
 * total rate evenly over `kinds` (default: every kind). `operations` replaces the rates for
 * the named operations (ids as in src/api/operations.ts, e.g. "GET Shipments/Updates").
 */
export interface FaultOptions {
  /** Seed of the fault stream; default: the world seed. The same seed gives the same sequence. */
  seed?: number;
  rate?: number;
  kinds?: FaultKind[];
  rates?: Partial<Record<FaultKind, number>>;
  operations?: Record<string, Partial<Record<FaultKind, number>>>;
  /** Only these operations get faults (default: all). */
  only?: string[];
  /** Delay of a `slow` answer, ms (default 1500). */
  slowMs?: number;
  /** Retry-After of a 429, seconds (default 1). */
  retryAfterSeconds?: number;
  /** Restrict `badRecords` to these corruptions (default: all). */
  corruptions?: Corruption[];
}

/** One decision: which fault (if any) a request gets, with its own stream for details. */
export interface FaultDecision {
  kind: FaultKind | undefined;
  rng: Rng;
}

/** Decides faults request by request from a seeded stream, so a failing run replays. */
export class FaultInjector {
  private rng: Rng;
  private count = 0;
  readonly tally: Record<string, number> = {};

  constructor(
    public options: FaultOptions,
    private readonly worldSeed: number,
  ) {
    this.rng = Rng.of(options.seed ?? worldSeed, 'faults');
  }

  /** Replaces the configuration and restarts the stream from its seed. */
  configure(options: FaultOptions): void {
    validateFaultOptions(options);
    this.options = options;
    this.rng = Rng.of(options.seed ?? this.worldSeed, 'faults');
    this.count = 0;
  }

  /** The fault for the next request of `op`. */
  decide(op: string): FaultDecision {
    this.count += 1;
    const u = this.rng.next();
    const detail = Rng.of(this.options.seed ?? this.worldSeed, 'fault-detail', this.count);
    if (this.options.only && !this.options.only.includes(op)) return { kind: undefined, rng: detail };
    const rates = this.ratesFor(op);
    let cumulative = 0;
    for (const kind of FAULT_KINDS) {
      cumulative += rates[kind] ?? 0;
      if (u < cumulative) {
        this.tally[kind] = (this.tally[kind] ?? 0) + 1;
        return { kind, rng: detail };
      }
    }
    return { kind: undefined, rng: detail };
  }

  private ratesFor(op: string): Partial<Record<FaultKind, number>> {
    const o = this.options;
    if (o.operations?.[op]) return o.operations[op];
    if (o.rates) return o.rates;
    if (o.rate) {
      const kinds = o.kinds ?? [...FAULT_KINDS];
      return Object.fromEntries(kinds.map((k) => [k, (o.rate as number) / kinds.length]));
    }
    return {};
  }
}

/** Throws a plain Error naming what is wrong with fault options. */
export function validateFaultOptions(o: FaultOptions): void {
  const check = (rates: Partial<Record<string, number>>, where: string) => {
    let sum = 0;
    for (const [kind, p] of Object.entries(rates)) {
      if (!(FAULT_KINDS as readonly string[]).includes(kind))
        throw new Error(`unknown fault kind "${kind}" in ${where}; known: ${FAULT_KINDS.join(', ')}`);
      if (typeof p !== 'number' || p < 0 || p > 1)
        throw new Error(`fault rate of ${kind} in ${where} must be between 0 and 1`);
      sum += p;
    }
    if (sum > 1 + 1e-9)
      throw new Error(`fault rates in ${where} add up to ${sum}; they must sum to at most 1`);
  };
  if (o.rates) check(o.rates, 'rates');
  for (const [op, rates] of Object.entries(o.operations ?? {})) check(rates, `operations["${op}"]`);
  if (o.rate !== undefined && (o.rate < 0 || o.rate > 1)) throw new Error('rate must be between 0 and 1');
  for (const k of o.kinds ?? [])
    if (!(FAULT_KINDS as readonly string[]).includes(k))
      throw new Error(`unknown fault kind "${k}"; known: ${FAULT_KINDS.join(', ')}`);
  for (const c of o.corruptions ?? [])
    if (!(CORRUPTIONS as readonly string[]).includes(c))
      throw new Error(`unknown corruption "${c}"; known: ${CORRUPTIONS.join(', ')}`);
}

const KEY_FIELDS = ['containerId', 'sku', 'invoiceNumber', 'orderNumber', 'shipReturnId', 'packingSlipId'];
const ENUM_FIELDS = [
  'statusCode',
  'processingStatusCode',
  'invoiceType',
  'itemTypeCode',
  'orderStatusCode',
  'carrier',
  'deliveryMethodCode',
];
const ISO_WITH_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})([+-]\d{2}:\d{2})$/;

/** Breaks one record the way a misbehaving upstream would; returns the corruption applied. */
export function corruptRecord(
  record: unknown,
  rng: Rng,
  allowed: readonly Corruption[] = CORRUPTIONS,
): Corruption | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const outer = record as Record<string, unknown>;
  const target = (typeof outer.header === 'object' && outer.header !== null ? outer.header : outer) as Record<
    string,
    unknown
  >;
  const corruption = rng.pick(allowed);
  const keys = Object.keys(target);
  switch (corruption) {
    case 'wrongType': {
      const key = KEY_FIELDS.find((k) => k in target) ?? keys[0];
      if (key === undefined) return undefined;
      target[key] = typeof target[key] === 'number' ? 'not-a-number' : { unexpected: true };
      break;
    }
    case 'missingField': {
      const key = KEY_FIELDS.find((k) => k in target) ?? keys[0];
      if (key === undefined) return undefined;
      delete target[key];
      break;
    }
    case 'overlongString': {
      const key = keys.find((k) => typeof target[k] === 'string');
      if (key === undefined) return undefined;
      target[key] = 'X'.repeat(5000);
      break;
    }
    case 'unknownEnum': {
      const key = ENUM_FIELDS.find((k) => k in target) ?? keys.find((k) => typeof target[k] === 'string');
      if (key === undefined) return undefined;
      target[key] = 'TELEPORTED';
      break;
    }
    case 'dateWithoutOffset':
    case 'dateUtc':
      rewriteDates(outer, corruption);
      break;
  }
  return corruption;
}

/** Rewrites every date-time of a record: without its offset (wall clock) or in UTC with Z. */
function rewriteDates(value: unknown, how: 'dateWithoutOffset' | 'dateUtc'): void {
  if (Array.isArray(value)) {
    for (const v of value) rewriteDates(v, how);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'string') {
      const m = ISO_WITH_OFFSET.exec(v);
      if (m) obj[k] = how === 'dateWithoutOffset' ? m[1] : new Date(v).toISOString();
    } else {
      rewriteDates(v, how);
    }
  }
}
