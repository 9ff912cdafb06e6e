import { inProcessRateLimits, type RateLimits } from '../ratelimit/budgets.ts';
import type { CallHooks } from './callHooks.ts';
import { checkClientOptions } from './clientOptions.ts';
import type { FulfillmentClient } from './fulfillmentClient.ts';
import { createOperationCalls } from './operationCalls.ts';
import { resolveQueryParams } from './queryParams.ts';
import {
  holdAtLocationSchema,
  inventoryActivitySchema,
  invoiceSchema,
  orderDetailSchema,
  ownedInventorySchema,
  ownedProductSchema,
  packingSlipSchema,
  productDetailSchema,
  shipmentReturnSchema,
  shipmentUpdateSchema,
  transferInDetailSchema,
  transferInListRowSchema,
  transferOutSchema,
} from './records/index.ts';
import {
  checkDateRange,
  checkHoldAtLocations,
  checkMinLength,
  checkOwnedInventory,
  checkPackingSlipIds,
  checkPathParams,
  checkTransferInCreate,
  checkWineProduct,
  enforce,
} from './requestRules.ts';
import { OPTION_SETTING_NAMES, type SettingNames } from './settingNames.ts';
import type { TokenProvider } from './tokenProvider.ts';
import { createTransport } from './transport.ts';

/**
 * Only `baseUrl` and `tokenProvider` are required; every other option has a default
 * (CLIENT_DEFAULTS for the numbers), so plain JavaScript can pass just those two.
 */
export interface FulfillmentClientOptions extends CallHooks {
  /** The service root; paths are `{baseUrl}/api/v1/...`. */
  baseUrl: string;
  /** The bearer token for every call, e.g. staticTokenProvider(token). */
  tokenProvider: TokenProvider;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per-request timeout of each attempt (default 30 000 ms). */
  timeoutMs?: number;
  /**
   * Client-side limit in requests per second of this process (default 10); 0 means none. Ignored
   * with `rateLimits`.
   */
  rateLimitRps?: number;
  /**
   * This process's own order-detail budget in requests per second, within `rateLimitRps`; unset
   * (the default) means only `rateLimitRps` applies. Ignored with `rateLimits`.
   */
  orderDetailRps?: number;
  /** The budgets to draw from instead, e.g. the deployment-wide ones in Redis (src/ratelimit). */
  rateLimits?: RateLimits;
  /** FULFILLMENT_QUERY_PARAMS overrides: `{operation: {meaning: name}}`. */
  queryParams?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * A list answer with this many rows or more fails with AnswerTooLargeError, since an upstream may
   * cut an answer at its own cap without saying so. 0 or absent: no cap.
   */
  maxRowsPerCall?: number;
  /**
   * How error messages name the settings to check. Default: these options' own names; the CLI and
   * worker pass their environment variables (ENVIRONMENT_SETTING_NAMES).
   */
  settingNames?: SettingNames;
  /** FULFILLMENT_MAX_RESPONSE_BYTES (see transport.ts); default 32 MiB. */
  maxResponseBytes?: number;
}

/**
 * Builds the typed client for all 17 operations; throws at once, naming the option, on a missing
 * baseUrl or tokenProvider, a bad number or bad query-parameter overrides.
 */
export function createFulfillmentClient(options: FulfillmentClientOptions): FulfillmentClient {
  const settingNames = options.settingNames ?? OPTION_SETTING_NAMES;
  const { timeoutMs, rateLimitRps, orderDetailRps } = checkClientOptions(options);
  const table = resolveQueryParams(options.queryParams, settingNames.queryParams);
  const send = createTransport({
    baseUrl: options.baseUrl,
    tokenProvider: options.tokenProvider,
    fetch: options.fetch,
    timeoutMs,
    settingNames,
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
    rateLimits:
      options.rateLimits ??
      inProcessRateLimits({
        rps: rateLimitRps,
        orderDetailRps,
        now: options.now,
      }),
    retry: options.retry,
    onCall: options.onCall,
    logger: options.logger,
    now: options.now,
    sleep: options.sleep,
  });

  const { query, list, listByQuery, scopedRangeList, detail, write } = createOperationCalls(
    send,
    table,
    settingNames,
    options,
  );

  return {
    async createWineProduct(body, call) {
      const op = 'POST Products/Skus/Wine';
      enforce(op, checkWineProduct(body));
      return write(op, { body }, call);
    },
    getProductDetail: (supplierId, sku, call) =>
      detail('GET Products/{supplierId}/{sku}', productDetailSchema, { supplierId, sku }, call),
    listOwnedProducts: async (q, call) =>
      listByQuery(
        'GET Products/Owned/Listing',
        ownedProductSchema,
        { ...q },
        checkMinLength('supplierId', q.supplierId, 2),
        call,
      ),
    async createTransferIn(body, call) {
      const op = 'POST Transfers/INs';
      enforce(op, checkTransferInCreate(body));
      return write(op, { body }, call);
    },
    listTransfersIn: scopedRangeList('GET Transfers/INs', transferInListRowSchema, 'supplierId'),
    getTransferInDetail: (supplierId, orderNumber, call) =>
      detail(
        'GET Transfers/INs/{supplierId}/{orderNumber}',
        transferInDetailSchema,
        { supplierId, orderNumber },
        call,
      ),
    async cancelTransferIn(p, call) {
      const op = 'DELETE Transfers/INs';
      enforce(op, checkPathParams({ supplierId: p.supplierId, orderNumber: p.orderNumber }));
      return write(op, { query: query(op, { supplierId: p.supplierId, orderNumber: p.orderNumber }) }, call);
    },
    searchTransfersOut: scopedRangeList('POST Transfers/OUTs/Search', transferOutSchema, 'supplierId'),
    listOwnedInventory: async (q, call) =>
      listByQuery('GET Inventories/Owned', ownedInventorySchema, { ...q }, checkOwnedInventory(q), call),
    listInventoryActivity: scopedRangeList('GET Inventories/Activity', inventoryActivitySchema, 'supplierId'),
    getOrderDetail: (accountNumber, orderNumber, call) =>
      detail(
        'GET Orders/Detail/{accountNumber}/{orderNumber}',
        orderDetailSchema,
        { accountNumber, orderNumber },
        call,
      ),
    async cancelOrder(accountNumber, orderNumber, cancel, call) {
      const op = 'DELETE Orders/{accountNumber}/{orderNumber}';
      const pathParams = { accountNumber, orderNumber };
      enforce(op, checkPathParams(pathParams));
      return write(op, { pathParams, query: query(op, { renameOrder: cancel?.renameOrder }) }, call);
    },
    async getPackingSlips(ids, call) {
      const op = 'POST Orders/PackingSlips/Bulk';
      enforce(op, checkPackingSlipIds(ids));
      if (ids.length === 0) return { records: [], rejected: [], repaired: [] };
      return list(op, packingSlipSchema, { body: { packingSlipIDs: [...ids] } }, call);
    },
    async listShipmentUpdates(q, call) {
      const problems = [...checkMinLength('accountNumber', q.accountNumber, 2)];
      if (!q.beginDate || !q.endDate) problems.push('beginDate and endDate are both required');
      else problems.push(...checkDateRange(q.beginDate, q.endDate, true));
      return listByQuery('GET Shipments/Updates', shipmentUpdateSchema, { ...q }, problems, call);
    },
    listReturns: scopedRangeList('GET Shipments/Returns', shipmentReturnSchema, 'accountNumber'),
    listHoldAtLocations: async (q, call) =>
      listByQuery(
        'GET Shipments/Carriers/HoldAtLocations',
        holdAtLocationSchema,
        { ...q },
        checkHoldAtLocations(q),
        call,
      ),
    listInvoices: async (q, call) =>
      listByQuery(
        'GET Finances/invoices',
        invoiceSchema,
        { ...q },
        checkDateRange(q.beginDate, q.endDate),
        call,
      ),
  };
}
