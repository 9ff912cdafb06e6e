import type {
  Invoice,
  OwnedInventory,
  ProductDetail,
  ShipmentReturn,
  ShipmentUpdate,
  TransferInDetail,
} from '../../api/records/index.ts';
import {
  deeplyNested,
  INT_OVERFLOW,
  MALFORMED_PRICE,
  MALFORMED_QUANTITY,
  NESTED_MEMBER,
  oversizedKey,
  WRONG_TYPE_QUANTITY,
  withLoneSurrogate,
  withNul,
} from './values.ts';

/**
 * Pure record patchers: each returns a poisoned copy of a spec record (records are built per answer,
 * but a copy keeps the patch from reaching anything else that holds the record).
 */

/** The tracking event at `eventTime` (as the record writes it) gets a NUL in its description. */
export function withNulEvent(record: ShipmentUpdate, eventTime: string): ShipmentUpdate {
  return {
    ...record,
    events: record.events?.map((e) =>
      e.eventTime === eventTime && typeof e.description === 'string'
        ? { ...e, description: withNul(e.description) }
        : e,
    ),
  };
}

/** The header's carrierName gets a lone surrogate. */
export function withSurrogateCarrier(record: ShipmentUpdate): ShipmentUpdate {
  const carrier = record.header.carrierName ?? 'Carrier';
  return { ...record, header: { ...record.header, carrierName: withLoneSurrogate(carrier) } };
}

/** orderCount outside int32. */
export function withOverflowingCount(record: Invoice): Invoice {
  return { ...record, orderCount: INT_OVERFLOW };
}

/** The invoice number padded to 80 KB. */
export function withOversizedNumber(record: Invoice): Invoice {
  return { ...record, invoiceNumber: oversizedKey(record.invoiceNumber) };
}

/** One extra member nested 8,000 levels deep. */
export function withDeepMember(record: ShipmentReturn): ShipmentReturn {
  return { ...record, [NESTED_MEMBER]: deeplyNested() };
}

/** qtyOnHand as a word. Typed loosely on purpose: the point is a value the schema rejects. */
export function withWrongTypedQuantity(record: OwnedInventory): Record<string, unknown> {
  return { ...record, qtyOnHand: WRONG_TYPE_QUANTITY };
}

/** The first line's qtyReceived as a word (schema-invalid), the rest of the detail intact. */
export function withMalformedLine(detail: TransferInDetail): Record<string, unknown> {
  const [first, ...rest] = detail.lineItems ?? [];
  if (!first) return { ...detail };
  return { ...detail, lineItems: [{ ...first, qtyReceived: MALFORMED_QUANTITY }, ...rest] };
}

/** The first selling info's retailPrice as a word (schema-invalid). */
export function withMalformedPrice(detail: ProductDetail): Record<string, unknown> {
  const [first, ...rest] = detail.sellingInfos ?? [];
  if (!first) return { ...detail, sellingInfos: [{ retailPrice: MALFORMED_PRICE }] };
  return { ...detail, sellingInfos: [{ ...first, retailPrice: MALFORMED_PRICE }, ...rest] };
}
