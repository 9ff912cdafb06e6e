import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  getTableConfig,
  integer,
  jsonb,
  type PgColumn,
  type PgTable,
  pgSchema,
  text,
} from 'drizzle-orm/pg-core';
import { MASKED_TABLE_MARKS } from '../pii/marking.ts';
import { type MaskedColumn, maskedViewSql } from '../pii/maskingSql.ts';
import { num, tz } from './columns.ts';
import { inventory, inventoryHistory } from './inventory.ts';
import { inventoryActivity } from './inventoryActivity.ts';
import { invoices } from './invoices.ts';
import { orderAddresses, orderHolds, orderLines, orderMessages, orders } from './orders.ts';
import { productBomInventories, productPtoComponents, productSellingInfos, products } from './products.ts';
import { returnLines, returns } from './returns.ts';
import { shipmentEvents, shipmentLines, shipments } from './shipments.ts';
import { transferInLines, transferInNotes, transfersIn } from './transfersIn.ts';
import { transfersOut } from './transfersOut.ts';

/**
 * What a reader role reads instead of the tables of schema `fulfillment`: one view per table, same
 * name, with the columns src/db/pii/marks/ marks (in the table's order; a column not marked is not
 * there), each read as its mark says: `value` and `derived` as an HMAC-SHA-256 (keyed with
 * sync.pii_key) of the value lowercased and trimmed, 64 hex digits, so equal e-mails or names hash
 * equal across tables (joins, counting distinct consumers) while nobody without the key can
 * recompute one from a guess; `json` with every member the allow-list does not name hashed, at any
 * depth; `safe` as stored, unless a text value looks like an e-mail, phone or street line (then
 * hashed; key columns excepted, so lookups use their index). Null stays null. The views run with
 * their owner's rights (they read the tables and the key); the functions they call take the key as
 * an argument, so a reader who could call them still could not hash a guess the same way.
 */
export const maskedSchema = pgSchema('fulfillment_masked');

/** A view column builder of the same SQL type as a table column. */
function viewColumn(column: PgColumn) {
  const type = column.getSQLType();
  switch (type) {
    case 'text':
      return text(column.name);
    case 'integer':
      return integer(column.name);
    case 'bigint':
      return bigint(column.name, { mode: 'number' });
    case 'boolean':
      return boolean(column.name);
    case 'numeric':
      return num(column.name);
    case 'timestamp with time zone':
      return tz(column.name);
    case 'date':
      return date(column.name, { mode: 'string' });
    case 'jsonb':
      return jsonb(column.name);
    default:
      throw new Error(`masked views: no view column for type ${type} (${column.name})`);
  }
}

/** The tables given a masking view below (`schema.table`). */
const maskedTables = new Set<string>();

function maskedView(table: PgTable) {
  const config = getTableConfig(table);
  const qualified = `${config.schema}.${config.name}`;
  maskedTables.add(qualified);
  const marks = MASKED_TABLE_MARKS.get(qualified);
  if (!marks) throw new Error(`src/db/pii/marks/fulfillment.ts: mark the columns of ${qualified}`);
  for (const column of marks.keys()) {
    if (!config.columns.some((c) => c.name === column)) {
      throw new Error(`src/db/pii/marks/fulfillment.ts marks ${qualified}.${column}, which does not exist`);
    }
  }
  const keys = new Set([
    ...config.columns.filter((c) => c.primary).map((c) => c.name),
    ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)),
  ]);
  const read = config.columns.flatMap((c): { column: PgColumn; masked: MaskedColumn }[] => {
    const mark = marks.get(c.name);
    if (mark === undefined || mark === 'closed') return [];
    return [{ column: c, masked: { name: c.name, type: c.getSQLType(), mark, key: keys.has(c.name) } }];
  });
  const columns = Object.fromEntries(read.map(({ column }) => [column.name, viewColumn(column)]));
  const body = maskedViewSql(
    config.schema ?? 'public',
    config.name,
    read.map(({ masked }) => masked),
  );
  return maskedSchema.view(config.name, columns).as(sql.raw(body));
}

export const maskedShipments = maskedView(shipments);
export const maskedShipmentLines = maskedView(shipmentLines);
export const maskedShipmentEvents = maskedView(shipmentEvents);
export const maskedReturns = maskedView(returns);
export const maskedReturnLines = maskedView(returnLines);
export const maskedInventory = maskedView(inventory);
export const maskedInventoryHistory = maskedView(inventoryHistory);
export const maskedInventoryActivity = maskedView(inventoryActivity);
export const maskedTransfersIn = maskedView(transfersIn);
export const maskedTransferInLines = maskedView(transferInLines);
export const maskedTransferInNotes = maskedView(transferInNotes);
export const maskedTransfersOut = maskedView(transfersOut);
export const maskedInvoices = maskedView(invoices);
export const maskedProducts = maskedView(products);
export const maskedProductSellingInfos = maskedView(productSellingInfos);
export const maskedProductPtoComponents = maskedView(productPtoComponents);
export const maskedProductBomInventories = maskedView(productBomInventories);
export const maskedOrders = maskedView(orders);
export const maskedOrderLines = maskedView(orderLines);
export const maskedOrderHolds = maskedView(orderHolds);
export const maskedOrderMessages = maskedView(orderMessages);
export const maskedOrderAddresses = maskedView(orderAddresses);

for (const qualified of MASKED_TABLE_MARKS.keys()) {
  // A table marked without a masking view would leave its reader nothing to read.
  if (!maskedTables.has(qualified))
    throw new Error(`src/db/schema/masked.ts: add a masking view for ${qualified}`);
}
