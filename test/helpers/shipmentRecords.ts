import type { ShipmentUpdate } from '../../src/api/records/index.ts';

/**
 * A shipment update header as the upstream sends it for container `containerId`: its order and
 * tracking number are derived from the id, and the status description is the status in lower case.
 */
export function shipmentHeader(containerId: string, status = 'SHIPPED'): ShipmentUpdate['header'] {
  return {
    containerId,
    orderNumber: `O-${containerId}`,
    shipDate: '2026-06-01T03:00:00',
    carrierName: 'CarrierA',
    trackingNumber: `T${containerId}`,
    trackingNumberUrl: null,
    statusCode: status,
    statusDescription: status.toLowerCase(),
  };
}
