import type {
  TransferInDetail,
  TransferInListRow,
  TransferOut as TransferOutRecord,
} from '../../api/records/index.ts';
import { isTransferInCancellable } from '../evolve/transfers.ts';
import type { TransferIn, TransferOut } from '../types.ts';
import { STATUS_NAMES } from '../world/names.ts';
import type { World } from '../world/state.ts';
import { PICKUP_SITES, WAREHOUSES } from '../world/warehouses.ts';

/** An IN as the list returns it. */
export function transferInRow(world: World, t: TransferIn): TransferInListRow {
  const z = world.zone;
  const site = PICKUP_SITES.find((s) => s.id === t.pickupSiteId);
  return {
    supplierId: t.supplierId,
    rowId: t.rowId,
    supplierName: world.suppliers.find((s) => s.id === t.supplierId)?.name ?? null,
    warehouseCode: t.warehouseCode,
    warehouseName: WAREHOUSES[t.warehouseCode] ?? null,
    referenceNumber: t.referenceNumber,
    orderNumber: t.orderNumber,
    submittedDate: t.submittedAt === null ? null : z.iso(t.submittedAt),
    statusCode: t.status,
    statusName: STATUS_NAMES[t.status] ?? t.status,
    isCancellable: isTransferInCancellable(t),
    isEditable: t.status === 'DRAFT',
    deliveryMethodCode: t.deliveryMethodCode,
    deliveryMethodName: t.deliveryMethodCode === 'PROVIDER_PICKUP' ? 'Pickup by provider' : 'Client drop-off',
    pickupSiteId: t.pickupSiteId === null ? null : String(t.pickupSiteId),
    pickupSiteCode: site?.code ?? null,
    pickupSiteLine1: site?.line1 ?? null,
    pickupSiteLine2: null,
    pickupSiteCity: site?.city ?? null,
    pickupSiteStateCode: site?.state ?? null,
    pickupSitePostalCode: site?.zip ?? null,
    pickupSiteCountryCode: site ? 'US' : null,
    expectedDate: z.iso(t.expectedDate),
    creationDate: z.iso(t.createdAt),
    createdBy: t.createdBy,
    lastUpdateDate: z.iso(t.updatedAt),
    lastUpdatedBy: 'warehouse.system',
  };
}

/** An IN's detail: header, lines and notes. */
export function transferInDetail(world: World, t: TransferIn): TransferInDetail {
  const z = world.zone;
  return {
    header: {
      ...transferInRow(world, t),
      pickupSitePhone: t.pickupSiteId === null ? null : '555-0100',
      pickupSiteFax: null,
      closedDate: t.closedAt === null ? null : z.iso(t.closedAt),
      notificationStatusCode: 'SENT',
      notificationStatusName: 'Sent',
      notificationStatusMessage: null,
    },
    lineItems: t.lines.map((l) => {
      const product = world.products.get(`${t.supplierId}|${l.sku}`);
      return {
        supplierId: t.supplierId,
        headerRowId: String(t.rowId),
        orderNumber: t.orderNumber,
        lineNumber: l.lineNumber,
        inventoryItemId: product?.providerSku ?? null,
        providerSku: product?.providerSku ?? null,
        sku: l.sku,
        skuDescription: product?.description ?? null,
        qtyOrdered: l.qtyOrdered,
        qtyReceived: l.qtyReceived,
        subInventoryCode: l.subInventoryCode,
        subInventoryName: 'Finished Goods',
        creationDate: z.iso(t.createdAt),
        createdBy: t.createdBy,
        lastUpdateDate: z.iso(l.updatedAt),
        lastUpdatedBy: 'warehouse.system',
      };
    }),
    notes: t.notes.map((n) => ({
      supplierId: t.supplierId,
      orderNumber: t.orderNumber,
      typeCode: n.typeCode,
      noteTimestamp: z.iso(n.at),
      noteText: n.text,
      creationDate: z.iso(n.at),
      createdBy: 'warehouse.system',
      lastUpdateDate: z.iso(n.at),
      lastUpdatedBy: 'warehouse.system',
    })),
  };
}

/** An OUT as the search returns it. */
export function transferOutRecord(world: World, o: TransferOut): TransferOutRecord {
  return {
    supplierId: o.supplierId,
    supplierName: world.suppliers.find((s) => s.id === o.supplierId)?.name ?? null,
    warehouseCode: o.warehouseCode,
    warehouseName: WAREHOUSES[o.warehouseCode] ?? null,
    orderNumber: o.orderNumber,
    referenceNumber: o.referenceNumber,
    orderedDate: world.zone.iso(o.orderedAt),
    requestedPriority: o.priority,
    requestDate: world.zone.iso(o.requestAt),
    statusCode: o.status,
    status: STATUS_NAMES[o.status] ?? o.status,
    createdBy: 'supplier.portal',
    isEditable: o.status === 'OPEN',
  };
}
