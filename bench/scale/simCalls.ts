/** The simulator's request counts, between two readings, by operation and by the stream that calls it. */

/** Which stream calls each operation (detail calls belong to the stream that asks for them). */
const STREAM_OF_OPERATION: Readonly<Record<string, string>> = {
  'GET Shipments/Updates': 'shipments',
  'GET Shipments/Returns': 'returns',
  'GET Orders/Detail/{accountNumber}/{orderNumber}': 'orders',
  'GET Inventories/Owned': 'inventory',
  'GET Inventories/Activity': 'inventory_activity',
  'GET Transfers/INs': 'transfers_in',
  'GET Transfers/INs/{supplierId}/{orderNumber}': 'transfers_in',
  'POST Transfers/OUTs/Search': 'transfers_out',
  'GET Finances/invoices': 'invoices',
  'GET Products/Owned/Listing': 'products',
  'GET Products/{supplierId}/{sku}': 'products',
};

/** Calls answered between two readings. */
export interface SimCalls {
  total: number;
  /** Answers that were not 2xx (413s that split a window, errors). */
  notOk: number;
  byOperation: Record<string, number>;
  byStream: Record<string, number>;
}

type Reading = { calls: Record<string, number>; failures: Record<string, number> };

export function simCallsBetween(before: Reading, after: Reading): SimCalls {
  const byOperation: Record<string, number> = {};
  const byStream: Record<string, number> = {};
  let total = 0;
  let notOk = 0;
  for (const [op, n] of Object.entries(after.calls)) {
    const delta = n - (before.calls[op] ?? 0);
    if (delta === 0) continue;
    byOperation[op] = delta;
    const stream = STREAM_OF_OPERATION[op] ?? 'other';
    byStream[stream] = (byStream[stream] ?? 0) + delta;
    total += delta;
  }
  for (const [op, n] of Object.entries(after.failures)) notOk += n - (before.failures[op] ?? 0);
  return { total, notOk, byOperation, byStream };
}
