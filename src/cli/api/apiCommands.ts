import type {
  FulfillmentClient,
  HoldAtLocationsQuery,
  InventoryActivityQuery,
  InvoicesQuery,
  OperationId,
  OwnedInventoryQuery,
  OwnedProductsQuery,
  ReturnsQuery,
  ShipmentUpdatesQuery,
  TransferInCreateInput,
  TransfersInQuery,
  TransfersOutQuery,
  WineProductCreateInput,
} from '../../api/index.ts';
import { DEFAULT_QUERY_PARAMS, type QueryMeaning, type QueryOperation } from '../../api/queryParams.ts';

/** A query flag, named by the parameter's meaning (`supplierId` -> `--supplier-id <value>`). */
export interface ApiFlag {
  meaning: string;
  /** Required by the operation (commander refuses the command without it). */
  required?: boolean;
  /** A boolean parameter with an upstream default: `--x` sends true, `--no-x` false, neither nothing. */
  boolean?: boolean;
  help?: string;
}

/** The input of one `api` command, as parsed from the command line (and the body from --file or stdin). */
export interface ApiInput {
  /** Positional arguments by name. */
  args: Readonly<Record<string, string>>;
  /** Query parameters by meaning; only the flags given. */
  query: Readonly<Record<string, string | boolean>>;
  /** Packing slip ids (packing-slips only). */
  ids: readonly number[];
  /** The parsed JSON body (writes that take one). */
  body: unknown;
}

/** How an operation's answer maps back to its envelope payload (see payload.ts). */
export type ApiAnswerKind = 'list' | 'detail' | 'write';

/** One `fulfillment-sync api <name>` command: one operation of the typed client. */
export interface ApiCommand {
  name: string;
  operation: OperationId;
  summary: string;
  kind: ApiAnswerKind;
  /** Positional arguments, in order (path parameters). */
  args?: readonly string[];
  /** Takes variadic integer arguments (packing slip ids). */
  ids?: boolean;
  flags?: readonly ApiFlag[];
  /** Reads a JSON body from --file or stdin. */
  body?: boolean;
  call(client: FulfillmentClient, input: ApiInput): Promise<unknown>;
}

const req = (meaning: string, help?: string): ApiFlag => ({ meaning, required: true, help });
const opt = (meaning: string, help?: string): ApiFlag => ({ meaning, help });
const bool = (meaning: string, help: string): ApiFlag => ({ meaning, boolean: true, help });
const DAY = 'yyyy-MM-dd, Pacific wall clock';

/** How an operation's query parameters become flags: which are required or boolean, and hints. */
interface FlagRules<Op extends QueryOperation> {
  required?: readonly QueryMeaning<Op>[];
  /** Boolean parameters, each with its help (which should name the upstream default). */
  boolean?: Partial<Record<QueryMeaning<Op>, string>>;
  help?: Partial<Record<QueryMeaning<Op>, string>>;
}

/**
 * The flags of an operation: one per query parameter of the one table of them
 * (DEFAULT_QUERY_PARAMS), in its order, so the CLI offers every parameter the client takes.
 */
function queryFlags<Op extends QueryOperation>(op: Op, rules: FlagRules<Op> = {}): ApiFlag[] {
  return Object.keys(DEFAULT_QUERY_PARAMS[op]).map((meaning) => {
    const m = meaning as QueryMeaning<Op>;
    const booleanHelp = rules.boolean?.[m];
    if (booleanHelp !== undefined) return bool(meaning, booleanHelp);
    const help = rules.help?.[m];
    return rules.required?.includes(m) ? req(meaning, help) : opt(meaning, help);
  });
}

// The query objects are assembled from flags by meaning; commander enforces the required ones and
// the client checks every rule of the spec before calling, so these casts only name the shape.
const q = <T>(input: ApiInput) => input.query as T;
const arg = (input: ApiInput, name: string) => input.args[name] as string;

/** Every operation of the typed client (spec section 4), as CLI commands. */
export const API_COMMANDS: readonly ApiCommand[] = [
  {
    name: 'create-wine-product',
    operation: 'POST Products/Skus/Wine',
    summary: 'create a wine product from a JSON body',
    kind: 'write',
    body: true,
    call: (c, i) => c.createWineProduct(i.body as WineProductCreateInput),
  },
  {
    name: 'product-detail',
    operation: 'GET Products/{supplierId}/{sku}',
    summary: 'one product with its selling, PTO and BOM details',
    kind: 'detail',
    args: ['supplierId', 'sku'],
    call: (c, i) => c.getProductDetail(arg(i, 'supplierId'), arg(i, 'sku')),
  },
  {
    name: 'owned-products',
    operation: 'GET Products/Owned/Listing',
    summary: "a supplier's products",
    kind: 'list',
    flags: queryFlags('GET Products/Owned/Listing', { required: ['supplierId'] }),
    call: (c, i) => c.listOwnedProducts(q<OwnedProductsQuery>(i)),
  },
  {
    name: 'create-transfer-in',
    operation: 'POST Transfers/INs',
    summary: 'create an IN (inbound transfer) from a JSON body',
    kind: 'write',
    body: true,
    call: (c, i) => c.createTransferIn(i.body as TransferInCreateInput),
  },
  {
    name: 'transfers-in',
    operation: 'GET Transfers/INs',
    summary: "a supplier's INs, by submitted date",
    kind: 'list',
    flags: queryFlags('GET Transfers/INs', {
      required: ['supplierId'],
      help: { beginDate: DAY, endDate: DAY },
    }),
    call: (c, i) => c.listTransfersIn(q<TransfersInQuery>(i)),
  },
  {
    name: 'transfer-in-detail',
    operation: 'GET Transfers/INs/{supplierId}/{orderNumber}',
    summary: 'one IN with its lines and notes',
    kind: 'detail',
    args: ['supplierId', 'orderNumber'],
    call: (c, i) => c.getTransferInDetail(arg(i, 'supplierId'), arg(i, 'orderNumber')),
  },
  {
    name: 'cancel-transfer-in',
    operation: 'DELETE Transfers/INs',
    summary: 'cancel an IN',
    kind: 'write',
    args: ['supplierId', 'orderNumber'],
    call: (c, i) =>
      c.cancelTransferIn({ supplierId: arg(i, 'supplierId'), orderNumber: arg(i, 'orderNumber') }),
  },
  {
    name: 'transfers-out',
    operation: 'POST Transfers/OUTs/Search',
    summary: "a supplier's OUTs, by ordered date",
    kind: 'list',
    flags: queryFlags('POST Transfers/OUTs/Search', {
      required: ['supplierId'],
      help: { beginDate: DAY, endDate: DAY },
    }),
    call: (c, i) => c.searchTransfersOut(q<TransfersOutQuery>(i)),
  },
  {
    name: 'owned-inventory',
    operation: 'GET Inventories/Owned',
    summary: "a supplier's inventory (one warehouse or one SKU)",
    kind: 'list',
    flags: queryFlags('GET Inventories/Owned', {
      required: ['supplierId'],
      boolean: { onHandOnly: 'only rows with stock on hand (upstream default: true)' },
    }),
    call: (c, i) => c.listOwnedInventory(q<OwnedInventoryQuery>(i)),
  },
  {
    name: 'inventory-activity',
    operation: 'GET Inventories/Activity',
    summary: "a supplier's inventory movements per day",
    kind: 'list',
    flags: queryFlags('GET Inventories/Activity', {
      required: ['supplierId'],
      help: { beginDate: DAY, endDate: DAY },
      boolean: { activeOnly: 'only rows with movement (upstream default: true)' },
    }),
    call: (c, i) => c.listInventoryActivity(q<InventoryActivityQuery>(i)),
  },
  {
    name: 'order-detail',
    operation: 'GET Orders/Detail/{accountNumber}/{orderNumber}',
    summary: 'one order with its lines, holds, messages and addresses',
    kind: 'detail',
    args: ['accountNumber', 'orderNumber'],
    call: (c, i) => c.getOrderDetail(arg(i, 'accountNumber'), arg(i, 'orderNumber')),
  },
  {
    name: 'cancel-order',
    operation: 'DELETE Orders/{accountNumber}/{orderNumber}',
    summary: 'cancel an order that has not shipped',
    kind: 'write',
    args: ['accountNumber', 'orderNumber'],
    flags: queryFlags('DELETE Orders/{accountNumber}/{orderNumber}', {
      boolean: { renameOrder: 'rename the cancelled order so its number can be reused' },
    }),
    call: (c, i) =>
      c.cancelOrder(arg(i, 'accountNumber'), arg(i, 'orderNumber'), {
        renameOrder: i.query.renameOrder as boolean | undefined,
      }),
  },
  {
    name: 'packing-slips',
    operation: 'POST Orders/PackingSlips/Bulk',
    summary: 'packing slips by id',
    kind: 'list',
    ids: true,
    call: (c, i) => c.getPackingSlips(i.ids),
  },
  {
    name: 'shipment-updates',
    operation: 'GET Shipments/Updates',
    summary: "an account's shipments updated in a time range",
    kind: 'list',
    flags: queryFlags('GET Shipments/Updates', {
      required: ['accountNumber', 'beginDate', 'endDate'],
      help: {
        beginDate: "yyyy-MM-dd or yyyy-MM-dd'T'HH:mm, Pacific wall clock",
        endDate: "yyyy-MM-dd or yyyy-MM-dd'T'HH:mm, inclusive",
      },
    }),
    call: (c, i) => c.listShipmentUpdates(q<ShipmentUpdatesQuery>(i)),
  },
  {
    name: 'returns',
    operation: 'GET Shipments/Returns',
    summary: "an account's returns, by return date",
    kind: 'list',
    flags: queryFlags('GET Shipments/Returns', {
      required: ['accountNumber'],
      help: { beginDate: DAY, endDate: DAY },
    }),
    call: (c, i) => c.listReturns(q<ReturnsQuery>(i)),
  },
  {
    name: 'hold-at-locations',
    operation: 'GET Shipments/Carriers/HoldAtLocations',
    summary: 'carrier locations that hold parcels near an address',
    kind: 'list',
    flags: queryFlags('GET Shipments/Carriers/HoldAtLocations', {
      help: { carrier: 'CarrierA (upstream default) or CarrierB' },
    }),
    call: (c, i) => c.listHoldAtLocations(q<HoldAtLocationsQuery>(i)),
  },
  {
    name: 'invoices',
    operation: 'GET Finances/invoices',
    summary: 'invoices by account, type, number or invoice date',
    kind: 'list',
    flags: queryFlags('GET Finances/invoices', { help: { beginDate: DAY, endDate: DAY } }),
    call: (c, i) => c.listInvoices(q<InvoicesQuery>(i)),
  },
];

/** `supplierId` -> `supplier-id`. */
export function kebab(meaning: string): string {
  return meaning.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
