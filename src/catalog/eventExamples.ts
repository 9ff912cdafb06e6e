import { EVENT_TYPES, type EventType, type FieldChange, TEST_EVENT_TYPE } from '../events/types.ts';

/**
 * One example body per event type, as `webhooks test --type T` sends it and `events example T`
 * prints it: the shape of schemas/events/<T>.json (test/catalog/eventExamples.test.ts validates every
 * one with ajv), marked `test: true`. Made-up values only: no consumer's name, address or contact.
 */

/** What a test message carries besides a derived event's members. */
export interface TestMessage {
  id: string;
  type: EventType | typeof TEST_EVENT_TYPE;
  occurredAt: string;
  detectedAt: string;
  subject: { kind: string; key: string };
  data: { current: unknown; previous: unknown; changes: FieldChange[] };
  /** Always true: an example sent on request, not a change fulfillment-sync saw. */
  test: true;
}

type Example = { key: string; current: unknown; previous: unknown; changes: FieldChange[] };

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

const EXAMPLES: Readonly<Record<EventType, Example>> = {
  'shipment.created': { key: 'C0001234', current: SHIPMENT('SHIPPED'), previous: null, changes: [] },
  'shipment.status_changed': {
    key: 'C0001234',
    current: SHIPMENT('IN_TRANSIT'),
    previous: SHIPMENT('SHIPPED'),
    changes: [change('header.statusCode', 'SHIPPED', 'IN_TRANSIT')],
  },
  'shipment.delivered': {
    key: 'C0001234',
    current: SHIPMENT('DELIVERED'),
    previous: SHIPMENT('IN_TRANSIT'),
    changes: [change('header.statusCode', 'IN_TRANSIT', 'DELIVERED')],
  },
  'shipment.exception': {
    key: 'C0001234',
    current: SHIPMENT('EXCEPTION'),
    previous: SHIPMENT('IN_TRANSIT'),
    changes: [change('header.statusCode', 'IN_TRANSIT', 'EXCEPTION')],
  },
  'shipment.returned': {
    key: 'C0001234',
    current: SHIPMENT('RETURNED'),
    previous: SHIPMENT('EXCEPTION'),
    changes: [change('header.statusCode', 'EXCEPTION', 'RETURNED')],
  },
  'shipment.tracking_event': {
    key: 'C0001234',
    current: SHIPMENT('IN_TRANSIT', [SCAN]),
    previous: SHIPMENT('IN_TRANSIT'),
    changes: [change('events[0]', null, SCAN)],
  },
  'order.status_changed': {
    key: 'ACC1:SO-100234',
    current: ORDER('SHIPPED'),
    previous: ORDER('RELEASED'),
    changes: [change('header.orderStatusCode', 'RELEASED', 'SHIPPED')],
  },
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
  'return.created': { key: '5012', current: RETURN('RECEIVED', null), previous: null, changes: [] },
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
  'inventory.changed': {
    key: 'SUP1:NAPA1:MAIN:CAB-2021-750',
    current: INVENTORY(40),
    previous: INVENTORY(46),
    changes: [change('qtyOnHand', 46, 40)],
  },
  'inventory.low_stock': {
    key: 'SUP1:NAPA1:MAIN:CAB-2021-750',
    current: INVENTORY(8),
    previous: INVENTORY(14),
    changes: [change('qtyOnHand', 14, 8)],
  },
  'inventory.out_of_stock': {
    key: 'SUP1:NAPA1:MAIN:CAB-2021-750',
    current: INVENTORY(0),
    previous: INVENTORY(2),
    changes: [change('qtyOnHand', 2, 0)],
  },
  'inventory.restocked': {
    key: 'SUP1:NAPA1:MAIN:CAB-2021-750',
    current: INVENTORY(120),
    previous: INVENTORY(0),
    changes: [change('qtyOnHand', 0, 120)],
  },
  'transfer_in.created': {
    key: 'SUP1:IN-3001',
    current: TRANSFER_IN('OPEN', 0),
    previous: null,
    changes: [],
  },
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
  'transfer_out.created': {
    key: 'SUP1:OUT-4001',
    current: TRANSFER_OUT('OPEN'),
    previous: null,
    changes: [],
  },
  'transfer_out.status_changed': {
    key: 'SUP1:OUT-4001',
    current: TRANSFER_OUT('SHIPPED'),
    previous: TRANSFER_OUT('OPEN'),
    changes: [change('statusCode', 'OPEN', 'SHIPPED')],
  },
  'invoice.created': { key: 'INV-9001', current: INVOICE(0), previous: null, changes: [] },
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

/** Whether `type` can be sent by `webhooks test`: an event type, or the ping. */
export function isTestMessageType(type: string): type is EventType | typeof TEST_EVENT_TYPE {
  return type === TEST_EVENT_TYPE || (EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The example of `type` with this id and time: an event type's example record, or (the ping) a
 * message naming the endpoint it was sent to.
 */
export function exampleMessage(
  type: EventType | typeof TEST_EVENT_TYPE,
  options: { id: string; at: Date; endpointId?: string | undefined },
): TestMessage {
  const at = options.at.toISOString();
  if (type === TEST_EVENT_TYPE) {
    const endpointId = options.endpointId ?? 'ep_example';
    return {
      id: options.id,
      type,
      occurredAt: at,
      detectedAt: at,
      subject: { kind: 'endpoint', key: endpointId },
      data: {
        current: { endpointId, message: 'fulfillment-sync test delivery' },
        previous: null,
        changes: [],
      },
      test: true,
    };
  }
  const example = EXAMPLES[type];
  return {
    id: options.id,
    type,
    occurredAt: at,
    detectedAt: at,
    subject: { kind: type.slice(0, type.indexOf('.')), key: example.key },
    data: { current: example.current, previous: example.previous, changes: example.changes },
    test: true,
  };
}
