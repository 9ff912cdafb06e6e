/**
 * Parameters of the client's operations, by meaning (spec section 4). Dates are wire strings built
 * by src/time: `yyyy-MM-dd`, and for shipment updates also `yyyy-MM-dd'T'HH:mm` (Pacific wall clock).
 */

export interface OwnedProductsQuery {
  supplierId: string;
  itemTypeCode?: string;
  sku?: string;
}

export interface TransfersInQuery {
  supplierId: string;
  warehouseCode?: string;
  sku?: string;
  statusCode?: string;
  deliveryMethodCode?: string;
  /** On SubmittedDate, `yyyy-MM-dd`. */
  beginDate?: string;
  endDate?: string;
}

export interface CancelTransferInParams {
  supplierId: string;
  orderNumber: string;
}

export interface TransfersOutQuery {
  supplierId: string;
  warehouseCode?: string;
  sku?: string;
  beginDate?: string;
  endDate?: string;
}

export interface OwnedInventoryQuery {
  supplierId: string;
  /** Not together with `sku` (spec 4.5). */
  warehouseCode?: string;
  subInventoryCode?: string;
  sku?: string;
  /** Upstream default: true. */
  onHandOnly?: boolean;
}

export interface InventoryActivityQuery {
  supplierId: string;
  warehouseCode?: string;
  subInventoryCode?: string;
  beginDate?: string;
  endDate?: string;
  sku?: string;
  /** Upstream default: true. */
  activeOnly?: boolean;
}

export interface CancelOrderOptions {
  /** Upstream default: false. */
  renameOrder?: boolean;
}

export interface ShipmentUpdatesQuery {
  accountNumber: string;
  /** `yyyy-MM-dd'T'HH:mm` or `yyyy-MM-dd`, Pacific wall clock. */
  beginDate: string;
  endDate: string;
  containerId?: string;
}

export interface ReturnsQuery {
  accountNumber: string;
  warehouseCode?: string;
  beginDate?: string;
  endDate?: string;
  returnReasonCode?: string;
  statusCode?: string;
  orderNumber?: string;
  trackingNumber?: string;
}

export interface HoldAtLocationsQuery {
  /** CarrierA (upstream default) or CarrierB. */
  carrier?: string;
  address1?: string;
  address2?: string;
  address3?: string;
  city?: string;
  stateCode?: string;
  postalCode?: string;
  countryCode?: string;
}

export interface InvoicesQuery {
  accountNumber?: string;
  invoiceType?: string;
  invoiceNumber?: string;
  beginDate?: string;
  endDate?: string;
}

/** Options every operation accepts. */
export interface CallOptions {
  /** Cancels the call and its retries. */
  signal?: AbortSignal;
}
