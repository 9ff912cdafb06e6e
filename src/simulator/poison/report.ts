import type { World } from '../world/state.ts';
import { RESTOCK_AFTER, type ResolvedTargets, VANISH_AFTER, WRONG_TYPE_AFTER } from './targets.ts';
import type { PoisonedRecord, PoisonKind, PoisonReport } from './types.ts';
import { NESTED_MEMBER, oversizedKey } from './values.ts';

/** The whole answer is the poison (an HTTP error instead of the record). */
const WHOLE_ANSWER = 'answer';

/** Lists the poisons served by `now`, and those already planned (pure: targets and world in, report out). */
export function reportPoisons(
  t: ResolvedTargets,
  world: World,
  now: number,
  rateLimit: PoisonReport['rateLimit'],
  kinds: ReadonlySet<PoisonKind>,
): PoisonReport {
  const iso = (ms: number) => new Date(ms).toISOString();
  const S = t.supplierId;
  const A = t.accountNumber;
  const candidates: Array<PoisonedRecord | undefined> = [
    t.nul?.from === undefined
      ? undefined
      : {
          operation: 'GET Shipments/Updates',
          stream: 'shipments',
          scope: A,
          key: t.nul.containerId,
          kind: 'nul',
          expected: 'repaired',
          field: `events[eventTime=${world.zone.iso(t.nul.eventTime)}].description`,
          inTruth: true,
          from: iso(t.nul.from),
        },
    t.surrogate && {
      operation: 'GET Shipments/Updates',
      stream: 'shipments',
      scope: A,
      key: t.surrogate.containerId,
      kind: 'lone-surrogate',
      expected: 'repaired',
      field: 'header.carrierName',
      inTruth: true,
      from: iso(t.surrogate.from),
    },
    t.malformedIn && {
      operation: 'GET Transfers/INs/{supplierId}/{orderNumber}',
      stream: 'transfers_in',
      scope: S,
      key: `${S}/${t.malformedIn.orderNumber}`,
      kind: 'malformed-detail',
      expected: 'detail-refetch',
      field: 'lineItems[0].qtyReceived',
      inTruth: false,
      from: iso(t.malformedIn.from),
      ...(t.malformedIn.until === undefined ? {} : { until: iso(t.malformedIn.until) }),
      ...(t.malformedIn.moveAt === undefined ? {} : { listRowChangesAt: iso(t.malformedIn.moveAt) }),
    },
    t.missingIn && {
      operation: 'GET Transfers/INs/{supplierId}/{orderNumber}',
      stream: 'transfers_in',
      scope: S,
      key: `${S}/${t.missingIn.orderNumber}`,
      kind: 'missing-detail',
      expected: 'quarantined',
      field: WHOLE_ANSWER,
      inTruth: false,
      from: iso(t.missingIn.from),
    },
    t.malformedProductSku === undefined
      ? undefined
      : {
          operation: 'GET Products/{supplierId}/{sku}',
          stream: 'products',
          scope: S,
          key: `${S}/${t.malformedProductSku}`,
          kind: 'malformed-detail',
          expected: 'quarantined',
          field: 'sellingInfos[0].retailPrice',
          inTruth: false,
          from: iso(t.start),
        },
    t.missingProductSku === undefined
      ? undefined
      : {
          operation: 'GET Products/{supplierId}/{sku}',
          stream: 'products',
          scope: S,
          key: `${S}/${t.missingProductSku}`,
          kind: 'missing-detail',
          expected: 'quarantined',
          field: WHOLE_ANSWER,
          inTruth: false,
          from: iso(t.start),
        },
    t.order503 && {
      operation: 'GET Orders/Detail/{accountNumber}/{orderNumber}',
      stream: 'orders',
      scope: A,
      key: `${t.order503.accountNumber}/${t.order503.orderNumber}`,
      kind: 'detail-503',
      expected: 'quarantined',
      field: WHOLE_ANSWER,
      inTruth: false,
      from: iso(t.order503.from),
    },
    t.wrongTypeKey === undefined || t.vanishing === undefined
      ? undefined
      : {
          operation: 'GET Inventories/Owned',
          stream: 'inventory',
          scope: S,
          key: t.wrongTypeKey.replaceAll('|', '/'),
          kind: 'wrong-type',
          expected: 'quarantined',
          field: 'qtyOnHand',
          inTruth: true,
          from: iso(t.start + WRONG_TYPE_AFTER),
          vanishing: {
            key: [S, t.vanishing.warehouseCode, t.vanishing.subInventoryCode, t.vanishing.sku].join('/'),
            vanishesAt: iso(t.start + VANISH_AFTER),
            restockedAt: iso(t.start + RESTOCK_AFTER),
          },
        },
    t.overflowInvoice && {
      operation: 'GET Finances/invoices',
      stream: 'invoices',
      scope: A,
      key: t.overflowInvoice.invoiceNumber,
      kind: 'int-overflow',
      expected: 'quarantined',
      field: 'orderCount',
      inTruth: true,
      from: iso(t.overflowInvoice.from),
    },
    t.oversizedInvoice && {
      operation: 'GET Finances/invoices',
      stream: 'invoices',
      scope: A,
      key: oversizedKey(t.oversizedInvoice.invoiceNumber),
      kind: 'oversized-key',
      expected: 'quarantined',
      field: 'invoiceNumber',
      inTruth: true,
      from: iso(t.oversizedInvoice.from),
    },
    t.deepReturn && {
      operation: 'GET Shipments/Returns',
      stream: 'returns',
      scope: A,
      key: String(t.deepReturn.shipReturnId),
      kind: 'deep-nesting',
      expected: 'quarantined',
      field: NESTED_MEMBER,
      inTruth: true,
      from: iso(t.deepReturn.from),
    },
  ];
  const known = candidates.filter((r): r is PoisonedRecord => r !== undefined);
  const records = known.filter((r) => Date.parse(r.from) <= now);
  const scheduled = known.filter((r) => Date.parse(r.from) > now);
  const served = new Set(known.map((r) => `${r.stream}:${r.kind}`));
  // The poisons that wait for their record to appear (the product ones are served from the start).
  const expectedKinds: Array<[PoisonedRecord['stream'], PoisonedRecord['kind']]> = [
    ['shipments', 'nul'],
    ['shipments', 'lone-surrogate'],
    ['transfers_in', 'malformed-detail'],
    ['transfers_in', 'missing-detail'],
    ['orders', 'detail-503'],
    ['inventory', 'wrong-type'],
    ['invoices', 'int-overflow'],
    ['invoices', 'oversized-key'],
    ['returns', 'deep-nesting'],
  ];
  const pending = expectedKinds
    .filter(([stream, k]) => kinds.has(k) && !served.has(`${stream}:${k}`))
    .map(([, k]) => k);
  return { scenario: 'poison', supplierId: S, accountNumber: A, rateLimit, records, scheduled, pending };
}
