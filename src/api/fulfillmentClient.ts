import type { z } from 'zod';
import type {
  CallOptions,
  CancelOrderOptions,
  CancelTransferInParams,
  HoldAtLocationsQuery,
  InventoryActivityQuery,
  InvoicesQuery,
  OwnedInventoryQuery,
  OwnedProductsQuery,
  ReturnsQuery,
  ShipmentUpdatesQuery,
  TransfersInQuery,
  TransfersOutQuery,
} from './params.ts';
import type {
  HoldAtLocation,
  InventoryActivity,
  Invoice,
  OrderDetail,
  OwnedInventory,
  OwnedProduct,
  PackingSlip,
  ProductDetail,
  ShipmentReturn,
  ShipmentUpdate,
  TransferInDetail,
  TransferInListRow,
  TransferOut,
  transferInCreateSchema,
  wineProductCreateSchema,
} from './records/index.ts';
import type { DetailResult, ListResult, WriteResult } from './validate.ts';

/** What a caller passes to create a wine product; checked against the schema before sending. */
export type WineProductCreateInput = z.input<typeof wineProductCreateSchema>;
/** What a caller passes to create an IN; checked against the schema before sending. */
export type TransferInCreateInput = z.input<typeof transferInCreateSchema>;

/**
 * The typed fulfillment API: one function per operation of spec section 4. Lists resolve to valid
 * records plus rejected ones; details to the record or null; writes to the strings they answered.
 * Failures reject with the errors of src/api/errors.ts; rule violations reject before any call.
 */
export interface FulfillmentClient {
  /** POST Products/Skus/Wine */
  createWineProduct(body: WineProductCreateInput, options?: CallOptions): Promise<WriteResult>;
  /** GET Products/{supplierId}/{sku} */
  getProductDetail(
    supplierId: string,
    sku: string,
    options?: CallOptions,
  ): Promise<DetailResult<ProductDetail>>;
  /** GET Products/Owned/Listing */
  listOwnedProducts(query: OwnedProductsQuery, options?: CallOptions): Promise<ListResult<OwnedProduct>>;
  /** POST Transfers/INs; the answer's strings include the new IN's order number. */
  createTransferIn(body: TransferInCreateInput, options?: CallOptions): Promise<WriteResult>;
  /** GET Transfers/INs */
  listTransfersIn(query: TransfersInQuery, options?: CallOptions): Promise<ListResult<TransferInListRow>>;
  /** GET Transfers/INs/{supplierId}/{orderNumber} */
  getTransferInDetail(
    supplierId: string,
    orderNumber: string,
    options?: CallOptions,
  ): Promise<DetailResult<TransferInDetail>>;
  /** DELETE Transfers/INs */
  cancelTransferIn(params: CancelTransferInParams, options?: CallOptions): Promise<WriteResult>;
  /** POST Transfers/OUTs/Search */
  searchTransfersOut(query: TransfersOutQuery, options?: CallOptions): Promise<ListResult<TransferOut>>;
  /** GET Inventories/Owned */
  listOwnedInventory(query: OwnedInventoryQuery, options?: CallOptions): Promise<ListResult<OwnedInventory>>;
  /** GET Inventories/Activity */
  listInventoryActivity(
    query: InventoryActivityQuery,
    options?: CallOptions,
  ): Promise<ListResult<InventoryActivity>>;
  /** GET Orders/Detail/{accountNumber}/{orderNumber} */
  getOrderDetail(
    accountNumber: string,
    orderNumber: string,
    options?: CallOptions,
  ): Promise<DetailResult<OrderDetail>>;
  /** DELETE Orders/{accountNumber}/{orderNumber} */
  cancelOrder(
    accountNumber: string,
    orderNumber: string,
    cancel?: CancelOrderOptions,
    options?: CallOptions,
  ): Promise<WriteResult>;
  /** POST Orders/PackingSlips/Bulk; an empty list answers empty without a call. */
  getPackingSlips(ids: readonly number[], options?: CallOptions): Promise<ListResult<PackingSlip>>;
  /** GET Shipments/Updates */
  listShipmentUpdates(
    query: ShipmentUpdatesQuery,
    options?: CallOptions,
  ): Promise<ListResult<ShipmentUpdate>>;
  /** GET Shipments/Returns */
  listReturns(query: ReturnsQuery, options?: CallOptions): Promise<ListResult<ShipmentReturn>>;
  /** GET Shipments/Carriers/HoldAtLocations */
  listHoldAtLocations(
    query: HoldAtLocationsQuery,
    options?: CallOptions,
  ): Promise<ListResult<HoldAtLocation>>;
  /** GET Finances/invoices */
  listInvoices(query: InvoicesQuery, options?: CallOptions): Promise<ListResult<Invoice>>;
}
