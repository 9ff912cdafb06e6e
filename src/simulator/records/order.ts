import type { ConsumerAddress, OrderDetail } from '../../api/records/index.ts';
import type { Order } from '../types.ts';
import { ORDER_TYPE_NAMES, STATUS_NAMES } from '../world/names.ts';
import type { World } from '../world/state.ts';
import { WAREHOUSES } from '../world/warehouses.ts';
import { trackingUrl } from './shipment.ts';

/** The OrderDetail payload of an order, joined with its shipments. */
export function orderDetailRecord(world: World, o: Order): OrderDetail {
  const z = world.zone;
  const account = world.accounts.find((a) => a.number === o.accountNumber);
  const shipments = o.containerIds.map((id) => world.shipments.get(id)).filter((s) => s !== undefined);
  const onHold = o.holds.some((h) => h.releasedAt === null);
  const open = o.shippedAt === null && o.cancelledAt === null;
  return {
    header: {
      accountNumber: o.accountNumber,
      customerName: account?.name ?? null,
      warehouseCode: o.warehouseCode,
      warehouseName: WAREHOUSES[o.warehouseCode] ?? null,
      providerOrderNumber: o.providerOrderNumber,
      orderNumber: o.orderNumber,
      receivedDate: z.iso(o.createdAt),
      creationDate: z.iso(o.createdAt),
      customerOrderDate: z.iso(o.createdAt),
      requestedShipDate: z.iso(o.requestedShipDate),
      fulfillmentDate: o.shippedAt === null ? null : z.iso(o.shippedAt),
      shippedDate: o.shippedAt === null ? null : z.iso(o.shippedAt),
      batchNumber: o.shippedAt === null ? null : `B${z.wallDate(o.shippedAt).replaceAll('-', '')}`,
      orderTypeCode: o.orderTypeCode,
      orderTypeName: ORDER_TYPE_NAMES[o.orderTypeCode] ?? null,
      requestedServiceLevel: 'GROUND',
      plannedServiceLevel: 'GROUND',
      orderStatusCode: o.status,
      orderStatusName: o.status === null ? null : (STATUS_NAMES[o.status] ?? o.status),
      collapsedStatus:
        o.cancelledAt !== null ? 'CANCELLED' : open ? (onHold ? 'ON_HOLD' : 'OPEN') : 'SHIPPED',
      notificationEmail: o.consumer.email,
      notificationPhone: o.consumer.phone,
      giftMessage: o.giftMessage,
      shippingInstructions: null,
      complianceRoute: 'STANDARD',
      fulfillmentRoute: o.warehouseCode,
      packingSlipCode: 'ORD1',
      packingSlipName: 'Packing slip 1',
      isOnsitePurchase: o.orderTypeCode === 'VC',
      isLineHaul: false,
      isEditable: open,
      isCancellable: open,
      isBackOrdered: o.messages.some((m) => m.text.startsWith('Backordered')),
      hasInventoryHold: onHold,
      ...slaOf(world, o),
      notificationTemplateCode: 'DEFAULT',
      notificationTemplateName: 'Default',
      packagingTypeCode: 'STD',
      packagingTypeName: 'Standard',
      vasOrderPersonalizations: o.giftMessage ? [{ type: 'GIFT_NOTE', message: o.giftMessage }] : [],
    },
    holds: o.holds.map((h) => ({
      holdStatus: h.releasedAt === null ? 'ACTIVE' : 'RELEASED',
      holdName: h.name,
      holdDescription: h.description,
      holdComment: null,
      releaseReason: h.releasedAt === null ? null : 'REVIEWED',
      releaseComment: null,
      expirationDate: null,
      releaseDate: h.releasedAt === null ? null : z.iso(h.releasedAt),
      creationDate: z.iso(h.createdAt),
      isDirectlyReleasable: h.name === 'ADDRESS_CHECK',
    })),
    messages: o.messages.map((m) => ({ messageType: m.type, message: m.text, messageTime: z.iso(m.at) })),
    soldToConsumers: [address(o, false)],
    shipToConsumers: [address(o, true)],
    deliverToConsumers: [address(o, true)],
    lineItems: o.lines.map((l) => ({
      lineNumber: String(l.lineNumber),
      componentNumber: '0',
      inventoryItemId: world.products.get(`${o.supplierId}|${l.sku}`)?.providerSku ?? null,
      sku: l.sku,
      description: world.products.get(`${o.supplierId}|${l.sku}`)?.description ?? null,
      isShippable: true,
      quantityOrdered: l.quantity,
      quantityReserved: o.shippedAt === null && o.cancelledAt === null ? l.quantity : 0,
      quantityShipped: l.quantityShipped,
      itemShortage: o.shippedAt === null ? 0 : l.quantity - l.quantityShipped,
      uom: 'EA',
      unitPrice: l.unitPrice,
      subInventoryCode: l.subInventoryCode,
      subInventoryName: 'Finished Goods',
      isBomComponent: false,
      vasOrderPersonalizations: [],
    })),
    packages: shipments.map((s) => ({ shipmentKey: String(s.shipmentKey), containerId: s.containerId })),
    contents: [],
    trackings: shipments.map((s) => ({
      containerId: s.containerId,
      trackingNumber: s.trackingNumber,
      trackingUrl: trackingUrl(s.carrierName, s.trackingNumber),
      statusCode: s.status,
    })),
    notes: [],
    billings: [],
    accountPayableHeaders: [],
    accountPayableLines: [],
  };
}

/**
 * The warehouse's SLA is a shipping promise: ship within SLA_SHIP_WITHIN_MS of the requested ship
 * date. Open orders are ON_TIME until then and LATE after; shipped ones MET it or MISSED it (a hold
 * can push the shipping past it); a cancelled order has no SLA status.
 */
export const SLA_SHIP_WITHIN_MS = 6 * 3_600_000;

function slaOf(world: World, o: Order) {
  const slaDate = o.requestedShipDate + SLA_SHIP_WITHIN_MS;
  const now = (world.processedMinute + 1) * 60_000;
  const [code, name] =
    o.cancelledAt !== null
      ? [null, null]
      : o.shippedAt === null
        ? now <= slaDate
          ? ['ON_TIME', 'On time']
          : ['LATE', 'Late']
        : o.shippedAt <= slaDate
          ? ['MET', 'Met']
          : ['MISSED', 'Missed'];
  return { slaStatusCode: code, slaStatusName: name, slaDate: world.zone.iso(slaDate) };
}

function address(o: Order, withTypeName: boolean): ConsumerAddress {
  const c = o.consumer;
  const base: ConsumerAddress = {
    isResidentialAddress: true,
    firstName: c.firstName,
    middleName: null,
    lastName: c.lastName,
    companyName: null,
    address1: c.address1,
    address2: null,
    address3: null,
    city: c.city,
    stateCode: c.stateCode,
    stateName: c.stateName,
    postalCode: c.postalCode,
    countryCode: 'US',
    countryName: 'United States',
    deliveryStatusCode: 'VALID',
    deliveryStatusName: 'Valid',
    deliveryAddressTypeCode: 'RES',
  };
  if (withTypeName) base.deliveryAddressTypeName = 'Residential';
  return base;
}
