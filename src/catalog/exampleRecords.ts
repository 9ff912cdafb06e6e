import type { EventType, FieldChange } from '../events/types.ts';

/**
 * The made-up record of each event type's example (`webhooks test --type T`, `events example T`):
 * the record now and before, and what changed. Made-up values only: no consumer's name, address or
 * contact.
 */

/** One event type's example: the subject's key, its record now and before, and the changes. */
export interface Example {
  key: string;
  current: unknown;
  previous: unknown;
  changes: FieldChange[];
}

const SHIPMENT = (statusCode: string, events: unknown[] = []) => ({
  header: {
    containerId: 'C0001234',
    orderNumber: 'SO-100234',
    shipDate: '2026-03-02T15:04:00',
    carrierName: 'UPS',
    trackingNumber: '1Z999AA10123456784',
    trackingNumberUrl: null,
    statusCode,
    statusDescription: null,
  },
  lineItems: [{ containerId: 'C0001234', lineNumber: 1, sku: 'CAB-2021-750', quantity: 6 }],
  events,
});
const SCAN = {
  containerId: 'C0001234',
  eventTime: '2026-03-03T09:12:00',
  city: 'Napa',
  stateOrProvince: 'CA',
  description: 'Out for delivery',
};

const ORDER = (orderStatusCode: string, holds: unknown[] = []) => ({
  header: {
    accountNumber: 'ACC1',
    orderNumber: 'SO-100234',
    creationDate: '2026-03-01T10:00:00',
    orderStatusCode,
    orderStatusName: orderStatusCode === 'SHIPPED' ? 'Shipped' : 'Released',
    isOnsitePurchase: false,
    isLineHaul: false,
    isEditable: false,
    isCancellable: orderStatusCode !== 'SHIPPED',
    isBackOrdered: false,
    hasInventoryHold: holds.length > 0,
  },
  holds,
  lineItems: [{ lineNumber: '1', sku: 'CAB-2021-750', quantityOrdered: 6, quantityShipped: 0 }],
});
const HOLD = {
  holdStatus: 'ACTIVE',
  holdName: 'ADDRESS_VERIFICATION',
  holdDescription: 'Address verification',
  creationDate: '2026-03-01T10:05:00',
  isDirectlyReleasable: true,
};

const RETURN = (processingStatusCode: string, resolutionCode: string | null) => ({
  shipReturnId: 5012,
  orderNumber: 'SO-100234',
  returnReasonCode: 'DAMAGED',
  processingStatusCode,
  resolutionCode,
  returnDate: '2026-03-05T11:00:00',
  lineItems: [{ shipReturnId: 5012, lineNumber: 1, sku: 'CAB-2021-750', quantityReturned: 1 }],
});

const INVENTORY_KEY = 'SUP1:NAPA1:MAIN:CAB-2021-750';
const INVENTORY = (qtyOnHand: number) => ({
  warehouseCode: 'NAPA1',
  sku: 'CAB-2021-750',
  subInventoryCode: 'MAIN',
  qtyOnHand,
  qtyAvailableToSell: qtyOnHand,
});

const TRANSFER_IN = (statusCode: string, qtyReceived: number) => ({
  header: { supplierId: 'SUP1', orderNumber: 'IN-3001', statusCode, expectedDate: '2026-03-04T00:00:00' },
  lineItems: [{ orderNumber: 'IN-3001', lineNumber: 1, sku: 'CAB-2021-750', qtyOrdered: 120, qtyReceived }],
  notes: [],
});

const TRANSFER_OUT = (statusCode: string) => ({
  supplierId: 'SUP1',
  orderNumber: 'OUT-4001',
  warehouseCode: 'NAPA1',
  statusCode,
  requestDate: '2026-03-02T08:00:00',
});

const INVOICE = (paymentsReceived: number) => ({
  invoiceNumber: 'INV-9001',
  accountNumber: 'ACC1',
  invoiceDate: '2026-03-01T00:00:00',
  totalInvoiceAmount: 1250.5,
  paymentsReceived,
  balanceDue: 1250.5 - paymentsReceived,
});

const change = (field: string, from: unknown, to: unknown): FieldChange => ({ field, from, to });

/** A record first seen: no previous record, no changes. */
const firstSeen = (key: string, current: unknown): Example => ({ key, current, previous: null, changes: [] });

/** A stored record whose `field` went from `from` to `to`: the record built with each value. */
function fieldChanged<V>(key: string, record: (value: V) => unknown, field: string, from: V, to: V): Example {
  return { key, current: record(to), previous: record(from), changes: [change(field, from, to)] };
}

/** Every event type's example. */
export const EXAMPLES: Readonly<Record<EventType, Example>> = {
  'shipment.created': firstSeen('C0001234', SHIPMENT('SHIPPED')),
  'shipment.status_changed': fieldChanged('C0001234', SHIPMENT, 'header.statusCode', 'SHIPPED', 'IN_TRANSIT'),
  'shipment.delivered': fieldChanged('C0001234', SHIPMENT, 'header.statusCode', 'IN_TRANSIT', 'DELIVERED'),
  'shipment.exception': fieldChanged('C0001234', SHIPMENT, 'header.statusCode', 'IN_TRANSIT', 'EXCEPTION'),
  'shipment.returned': fieldChanged('C0001234', SHIPMENT, 'header.statusCode', 'EXCEPTION', 'RETURNED'),
  'shipment.tracking_event': {
    key: 'C0001234',
    current: SHIPMENT('IN_TRANSIT', [SCAN]),
    previous: SHIPMENT('IN_TRANSIT'),
    changes: [change('events[0]', null, SCAN)],
  },
  'order.status_changed': fieldChanged(
    'ACC1:SO-100234',
    ORDER,
    'header.orderStatusCode',
    'RELEASED',
    'SHIPPED',
  ),
  'order.hold_added': {
    key: 'ACC1:SO-100234',
    current: ORDER('RELEASED', [HOLD]),
    previous: ORDER('RELEASED'),
    changes: [change('holds[0]', null, HOLD)],
  },
  'order.hold_released': {
    key: 'ACC1:SO-100234',
    current: ORDER('RELEASED'),
    previous: ORDER('RELEASED', [HOLD]),
    changes: [change('holds[0]', HOLD, null)],
  },
  'return.created': firstSeen('5012', RETURN('RECEIVED', null)),
  'return.status_changed': {
    key: '5012',
    current: RETURN('INSPECTED', null),
    previous: RETURN('RECEIVED', null),
    changes: [change('processingStatusCode', 'RECEIVED', 'INSPECTED')],
  },
  'return.resolved': {
    key: '5012',
    current: RETURN('CLOSED', 'REFUND'),
    previous: RETURN('INSPECTED', null),
    changes: [change('resolutionCode', null, 'REFUND')],
  },
  'inventory.changed': fieldChanged(INVENTORY_KEY, INVENTORY, 'qtyOnHand', 46, 40),
  'inventory.low_stock': fieldChanged(INVENTORY_KEY, INVENTORY, 'qtyOnHand', 14, 8),
  'inventory.out_of_stock': fieldChanged(INVENTORY_KEY, INVENTORY, 'qtyOnHand', 2, 0),
  'inventory.restocked': fieldChanged(INVENTORY_KEY, INVENTORY, 'qtyOnHand', 0, 120),
  'transfer_in.created': firstSeen('SUP1:IN-3001', TRANSFER_IN('OPEN', 0)),
  'transfer_in.status_changed': {
    key: 'SUP1:IN-3001',
    current: TRANSFER_IN('IN_TRANSIT', 0),
    previous: TRANSFER_IN('OPEN', 0),
    changes: [change('header.statusCode', 'OPEN', 'IN_TRANSIT')],
  },
  'transfer_in.received': {
    key: 'SUP1:IN-3001',
    current: TRANSFER_IN('RECEIVED', 120),
    previous: TRANSFER_IN('IN_TRANSIT', 0),
    changes: [
      change('header.statusCode', 'IN_TRANSIT', 'RECEIVED'),
      change('lineItems[0].qtyReceived', 0, 120),
    ],
  },
  'transfer_out.created': firstSeen('SUP1:OUT-4001', TRANSFER_OUT('OPEN')),
  'transfer_out.status_changed': fieldChanged('SUP1:OUT-4001', TRANSFER_OUT, 'statusCode', 'OPEN', 'SHIPPED'),
  'invoice.created': firstSeen('INV-9001', INVOICE(0)),
  'invoice.paid': {
    key: 'INV-9001',
    current: INVOICE(1250.5),
    previous: INVOICE(0),
    changes: [change('paymentsReceived', 0, 1250.5), change('balanceDue', 1250.5, 0)],
  },
  'invoice.balance_changed': {
    key: 'INV-9001',
    current: INVOICE(500),
    previous: INVOICE(0),
    changes: [change('paymentsReceived', 0, 500), change('balanceDue', 1250.5, 750.5)],
  },
};
