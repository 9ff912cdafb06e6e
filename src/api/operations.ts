/**
 * The 17 operations of the fulfillment API (spec section 4). The id is `<METHOD> <path after /api/v1/>`,
 * the same key CONTRACT.md section 1 uses for query-parameter overrides and that metrics report.
 */
export const OPERATIONS = {
  'POST Products/Skus/Wine': { method: 'POST', path: 'Products/Skus/Wine', idempotent: false },
  'GET Products/{supplierId}/{sku}': { method: 'GET', path: 'Products/{supplierId}/{sku}', idempotent: true },
  'GET Products/Owned/Listing': { method: 'GET', path: 'Products/Owned/Listing', idempotent: true },
  'POST Transfers/INs': { method: 'POST', path: 'Transfers/INs', idempotent: false },
  'GET Transfers/INs': { method: 'GET', path: 'Transfers/INs', idempotent: true },
  'GET Transfers/INs/{supplierId}/{orderNumber}': {
    method: 'GET',
    path: 'Transfers/INs/{supplierId}/{orderNumber}',
    idempotent: true,
  },
  'DELETE Transfers/INs': { method: 'DELETE', path: 'Transfers/INs', idempotent: true },
  // A search with no body: POST on the wire, but a read.
  'POST Transfers/OUTs/Search': { method: 'POST', path: 'Transfers/OUTs/Search', idempotent: true },
  'GET Inventories/Owned': { method: 'GET', path: 'Inventories/Owned', idempotent: true },
  'GET Inventories/Activity': { method: 'GET', path: 'Inventories/Activity', idempotent: true },
  'GET Orders/Detail/{accountNumber}/{orderNumber}': {
    method: 'GET',
    path: 'Orders/Detail/{accountNumber}/{orderNumber}',
    idempotent: true,
  },
  'DELETE Orders/{accountNumber}/{orderNumber}': {
    method: 'DELETE',
    path: 'Orders/{accountNumber}/{orderNumber}',
    idempotent: true,
  },
  'POST Orders/PackingSlips/Bulk': { method: 'POST', path: 'Orders/PackingSlips/Bulk', idempotent: true },
  'GET Shipments/Updates': { method: 'GET', path: 'Shipments/Updates', idempotent: true },
  'GET Shipments/Returns': { method: 'GET', path: 'Shipments/Returns', idempotent: true },
  'GET Shipments/Carriers/HoldAtLocations': {
    method: 'GET',
    path: 'Shipments/Carriers/HoldAtLocations',
    idempotent: true,
  },
  'GET Finances/invoices': { method: 'GET', path: 'Finances/invoices', idempotent: true },
} as const satisfies Record<string, OperationSpec>;

export interface OperationSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path after `/api/v1/`; `{name}` placeholders are filled with URL-encoded path parameters. */
  path: string;
  /**
   * False for creates: a timeout or dropped connection may hide a request the service applied, so the
   * transport only repeats them when the service clearly refused the call (408, 429, 503).
   */
  idempotent: boolean;
}

export type OperationId = keyof typeof OPERATIONS;

/** Fills `{name}` placeholders with encoded values; a missing value is a programming error. */
export function buildPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path parameter ${name} is missing for ${template}`);
    return encodeURIComponent(value);
  });
}
