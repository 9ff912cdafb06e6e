import type { OperationId } from '../../api/operations.ts';
import type { Handler } from './context.ts';
import { invoices } from './finances.ts';
import { inventoryActivity, ownedInventory } from './inventory.ts';
import { cancelOrderRoute, orderDetail, packingSlips } from './orders.ts';
import { createWine, ownedProducts, productDetail } from './products.ts';
import { holdAt, shipmentReturns, shipmentUpdates } from './shipments.ts';
import {
  cancelTransferInRoute,
  createTransferIn,
  listTransfersIn,
  searchTransfersOut,
  transferInDetailRoute,
} from './transfers.ts';

interface Route {
  op: OperationId;
  method: string;
  /** Path after /api/v1/, segments; `{name}` captures one segment. */
  segments: string[];
  handler: Handler;
}

// Literal routes come before parameterised ones that could shadow them (Products/Owned/Listing).
const ROUTES: Route[] = [
  route('GET Orders/Detail/{accountNumber}/{orderNumber}', orderDetail),
  route('POST Orders/PackingSlips/Bulk', packingSlips),
  route('DELETE Orders/{accountNumber}/{orderNumber}', cancelOrderRoute),
  route('POST Products/Skus/Wine', createWine),
  route('GET Products/Owned/Listing', ownedProducts),
  route('GET Products/{supplierId}/{sku}', productDetail),
  route('POST Transfers/INs', createTransferIn),
  route('GET Transfers/INs', listTransfersIn),
  route('GET Transfers/INs/{supplierId}/{orderNumber}', transferInDetailRoute),
  route('DELETE Transfers/INs', cancelTransferInRoute),
  route('POST Transfers/OUTs/Search', searchTransfersOut),
  route('GET Inventories/Owned', ownedInventory),
  route('GET Inventories/Activity', inventoryActivity),
  route('GET Shipments/Updates', shipmentUpdates),
  route('GET Shipments/Returns', shipmentReturns),
  route('GET Shipments/Carriers/HoldAtLocations', holdAt),
  route('GET Finances/invoices', invoices),
];

function route(op: OperationId, handler: Handler): Route {
  const [method, path] = op.split(' ') as [string, string];
  return { op, method, segments: path.split('/'), handler };
}

/** The route for a method and the path after /api/v1/ (matched case-insensitively, as ASP.NET does). */
export function matchRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | 'method' | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  let pathMatched = false;
  for (const r of ROUTES) {
    if (r.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = r.segments.every((seg, i) => {
      const part = parts[i] as string;
      if (seg.startsWith('{')) {
        params[seg.slice(1, -1)] = decodeURIComponent(part);
        return true;
      }
      return seg.toLowerCase() === part.toLowerCase();
    });
    if (!matches) continue;
    if (r.method !== method) {
      pathMatched = true;
      continue;
    }
    return { route: r, params };
  }
  return pathMatched ? 'method' : undefined;
}

export const OPERATION_COUNT = ROUTES.length;
