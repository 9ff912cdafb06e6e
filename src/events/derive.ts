import type {
  Invoice,
  OrderDetail,
  OwnedInventory,
  ShipmentReturn,
  ShipmentUpdate,
  TransferInDetail,
  TransferOut,
} from '../api/records/index.ts';
import { inventoryRule } from './rules/inventory.ts';
import { invoiceRule } from './rules/invoice.ts';
import { orderRule } from './rules/order.ts';
import { returnRule } from './rules/return.ts';
import { shipmentRule } from './rules/shipment.ts';
import { transferInRule } from './rules/transferIn.ts';
import { transferOutRule } from './rules/transferOut.ts';
import type { DeriveContext, DerivedEvent, EventRule, SubjectKind } from './types.ts';

/** The record type each subject kind's rule reads (the spec record as received). */
export interface RecordByKind {
  shipment: ShipmentUpdate;
  order: OrderDetail;
  return: ShipmentReturn;
  inventory: OwnedInventory;
  transfer_in: TransferInDetail;
  transfer_out: TransferOut;
  invoice: Invoice;
}

type Rule<K extends SubjectKind> = EventRule<RecordByKind[K]>;

const RULES: { [K in SubjectKind]: Rule<K> } = {
  shipment: shipmentRule,
  order: orderRule,
  return: returnRule,
  inventory: inventoryRule,
  transfer_in: transferInRule,
  transfer_out: transferOutRule,
  invoice: invoiceRule,
};

/**
 * The events of one record's change: `previous` is the record as stored last time (null when
 * first seen), `current` as just received. Pure; an unchanged record yields [].
 */
export function deriveEvents<K extends SubjectKind>(
  kind: K,
  previous: RecordByKind[K] | null,
  current: RecordByKind[K],
  ctx: DeriveContext,
): DerivedEvent[] {
  const rule = RULES[kind] as Rule<K>;
  return rule(previous, current, ctx);
}
