import type { Personalization, ShipmentReturn } from '../../api/records/index.ts';
import { returnReasonName } from '../evolve/returns.ts';
import type { Return } from '../types.ts';
import { ORDER_TYPE_NAMES, RESOLUTIONS, STATUS_NAMES } from '../world/names.ts';
import type { World } from '../world/state.ts';
import { trackingUrl } from './shipment.ts';

/** A return as Shipments/Returns lists it. */
export function returnRecord(world: World, r: Return): ShipmentReturn {
  const z = world.zone;
  const shipment = world.shipments.get(r.containerId);
  const order = world.orders.get(`${r.accountNumber}|${r.orderNumber}`);
  const account = world.accounts.find((a) => a.number === r.accountNumber);
  const personalizations = (line: Return['lines'][number]): Personalization[] =>
    line.personalization === null
      ? []
      : [
          {
            type: 'ENGRAVING',
            lineNumber: line.lineNumber,
            message: line.personalization,
            options: [{ type: 'FONT', option: 'Serif', message: line.personalization }],
          },
        ];
  const all = r.lines.flatMap(personalizations);
  return {
    shipReturnId: r.shipReturnId,
    shipmentKey: r.shipmentKey,
    customerName: account?.name ?? null,
    providerOrderNumber: order?.providerOrderNumber ?? null,
    orderNumber: r.orderNumber,
    orderTypeCode: order?.orderTypeCode ?? null,
    orderTypeName: order ? (ORDER_TYPE_NAMES[order.orderTypeCode] ?? null) : null,
    shipFromWarehouseCode: shipment?.warehouseCode ?? null,
    consumerFirstName: order?.consumer.firstName ?? null,
    consumerLastName: order?.consumer.lastName ?? null,
    consumerAddress1: order?.consumer.address1 ?? null,
    consumerAddress2: null,
    consumerCity: order?.consumer.city ?? null,
    consumerState: order?.consumer.stateCode ?? null,
    consumerZipCode: order?.consumer.postalCode ?? null,
    notificationEmailAddress: order?.consumer.email ?? null,
    notificationPhoneNumber: order?.consumer.phone ?? null,
    wmsCarrierCode: shipment?.carrierName.toUpperCase() ?? null,
    carrierCode: shipment?.carrierName ?? null,
    trackingNumber: r.trackingNumber,
    trackingNumberUrl: trackingUrl(shipment?.carrierName ?? 'CarrierA', r.trackingNumber),
    trackingStatusUrl: `${trackingUrl(shipment?.carrierName ?? 'CarrierA', r.trackingNumber)}/status`,
    returnReasonCode: r.reasonCode,
    returnReasonName: returnReasonName(r.reasonCode),
    processingStatusCode: r.status,
    processingStatusName: STATUS_NAMES[r.status] ?? r.status,
    resolutionCode: r.resolutionCode,
    resolutionName: r.resolutionCode === null ? null : (RESOLUTIONS[r.resolutionCode] ?? null),
    shipDate: shipment ? z.iso(shipment.shipDate) : null,
    returnDate: z.iso(r.returnDate),
    hasPersonalizations: all.length > 0,
    vasOrderPersonalizations: all,
    lineItems: r.lines.map((l) => ({
      shipReturnId: r.shipReturnId,
      shipmentKey: r.shipmentKey,
      lineNumber: l.lineNumber,
      componentNumber: 0,
      sku: l.sku,
      skuDescription: world.products.get(`${order?.supplierId}|${l.sku}`)?.description ?? null,
      providerSku: world.products.get(`${order?.supplierId}|${l.sku}`)?.providerSku ?? null,
      quantityOrdered: l.quantityShipped,
      quantityShipped: l.quantityShipped,
      quantityReturned: l.quantityReturned,
      quantityDamaged: l.quantityDamaged,
      quantityMissing: 0,
      vasOrderPersonalizations: personalizations(l),
    })),
  };
}
