/**
 * The simulator's internal state: compact mutable entities from which the spec records are
 * materialised on demand (see records/). Times are ms since the epoch.
 */

export interface Supplier {
  id: string;
  name: string;
  accountNumber: string;
}

export interface Account {
  number: string;
  name: string;
  supplierId: string;
}

export interface Product {
  supplierId: string;
  sku: string;
  providerSku: string;
  description: string;
  itemTypeCode: string;
  brandName: string;
  fancifulName: string;
  appellation: string;
  varietal: string;
  vintage: string;
  alcoholTypeCode: string;
  alcoholPercentage: number;
  bottleSizeMl: string;
  unitsPerCase: number;
  regionOfOrigin: string;
  colaNumber: string;
  vineyardDesignation: string;
  retailPrice: number;
  weight: number;
  sellerAccounts: string[];
  /** PTO products: components (sku, quantity). */
  ptoComponents: Array<{ sku: string; quantity: number }>;
  /** Gift sets: items per set, stocked as sets. */
  itemsPerGset: number;
  createdAt: number;
}

export interface InventoryRow {
  supplierId: string;
  warehouseCode: string;
  subInventoryCode: string;
  sku: string;
  qtyOnHand: number;
  qtyOnOrders: number;
  qtyOnIns: number;
  /** Emptied sub-inventory rows are dropped from the owned list until restocked. */
  dropped: boolean;
}

export type ActivityField =
  | 'qtyReceived'
  | 'qtyTransferredIn'
  | 'qtyTransferredOut'
  | 'qtyMovedIn'
  | 'qtyMovedOut'
  | 'qtyShipped'
  | 'qtyAdjusted'
  | 'qtyDamaged'
  | 'qtyReturned'
  | 'qtyKitted'
  | 'qtyOther';

export interface ActivityRow {
  day: string;
  key: string;
  beginningOnHand: number;
  endingOnHand: number;
  counts: Record<ActivityField, number>;
}

export interface OrderLine {
  lineNumber: number;
  sku: string;
  quantity: number;
  quantityShipped: number;
  unitPrice: number;
  subInventoryCode: string;
}

export interface Hold {
  name: string;
  description: string;
  createdAt: number;
  releasedAt: number | null;
}

export interface Consumer {
  firstName: string;
  lastName: string;
  address1: string;
  city: string;
  stateCode: string;
  stateName: string;
  postalCode: string;
  email: string;
  phone: string;
}

export interface Order {
  accountNumber: string;
  supplierId: string;
  orderNumber: string;
  providerOrderNumber: string;
  warehouseCode: string;
  orderTypeCode: string;
  createdAt: number;
  requestedShipDate: number;
  shippedAt: number | null;
  cancelledAt: number | null;
  status: string | null;
  lines: OrderLine[];
  holds: Hold[];
  messages: Array<{ type: string; text: string; at: number }>;
  consumer: Consumer;
  giftMessage: string | null;
  containerIds: string[];
  updatedAt: number;
}

export interface TrackingEvent {
  eventTime: number;
  city: string;
  state: string;
  description: string;
  /** A status the shipment takes when this event becomes visible. */
  status: string | null;
}

export interface Shipment {
  containerId: string;
  shipmentKey: number;
  accountNumber: string;
  orderNumber: string;
  warehouseCode: string;
  shipDate: number;
  carrierName: string;
  trackingNumber: string;
  status: string;
  lines: Array<{ lineNumber: number; sku: string; quantity: number }>;
  events: TrackingEvent[];
  /** Events planned at shipping, revealed one by one by the clock (index = Task.event). */
  planned: TrackingEvent[];
  /** When it was created, changed status or got a new event: what Shipments/Updates windows on. */
  updatedAt: number;
}

export interface ReturnLine {
  lineNumber: number;
  sku: string;
  quantityShipped: number;
  quantityReturned: number;
  quantityDamaged: number;
  personalization: string | null;
}

export interface Return {
  shipReturnId: number;
  shipmentKey: number;
  containerId: string;
  accountNumber: string;
  orderNumber: string;
  returnDate: number;
  reasonCode: string;
  status: string;
  resolutionCode: string | null;
  trackingNumber: string;
  lines: ReturnLine[];
  updatedAt: number;
}

export interface TransferInLine {
  lineNumber: number;
  sku: string;
  subInventoryCode: string;
  qtyOrdered: number;
  qtyReceived: number;
  updatedAt: number;
}

export interface TransferIn {
  supplierId: string;
  rowId: number;
  orderNumber: string;
  referenceNumber: string;
  warehouseCode: string;
  deliveryMethodCode: string;
  pickupSiteId: number | null;
  expectedDate: number;
  status: string;
  createdAt: number;
  submittedAt: number | null;
  closedAt: number | null;
  updatedAt: number;
  createdBy: string;
  lines: TransferInLine[];
  notes: Array<{ typeCode: string; text: string; at: number }>;
}

export interface TransferOut {
  supplierId: string;
  orderNumber: string;
  referenceNumber: string;
  warehouseCode: string;
  orderedAt: number;
  requestAt: number;
  priority: string;
  status: string;
  lines: Array<{ sku: string; subInventoryCode: string; quantity: number }>;
  updatedAt: number;
}

export interface Invoice {
  invoiceNumber: string;
  accountNumber: string;
  invoiceType: string;
  orderCount: number;
  invoiceDate: number;
  classAmount: number;
  totalAmount: number;
  paymentsReceived: number;
  updatedAt: number;
}

export interface PackingSlip {
  id: number;
  name: string;
  orderingCode: string;
  layoutCode: string;
  useBrandLogo: boolean;
  marketingMessage: string;
  createdAt: number;
}

/** One entry of the change history that truth() exports. */
export interface HistoryEntry {
  /** ISO instant (UTC) of the simulated time of the change. */
  at: string;
  kind: string;
  key: string;
  change: Record<string, unknown>;
}
