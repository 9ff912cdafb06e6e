import { MINUTE, minuteOf } from '../evolve/rates.ts';
import { Rng } from '../rng.ts';
import type { InventoryRow, Invoice, Return, Shipment, TransferIn } from '../types.ts';
import { inventoryKey, type World } from '../world/state.ts';

/**
 * Which records the poison scenario poisons, and when. Every choice is a pure function of the world
 * (so of the seed and simulated time): records that exist at the start are chosen from the world as
 * it is then; records created later ("the first shipment after the start") are found when they
 * appear and never change afterwards, however the clock is advanced.
 */

const DAY = 1440 * MINUTE;
/** The wrong-typed inventory row starts being served this long after the start. */
export const WRONG_TYPE_AFTER = DAY;
/** The vanishing SKU drops out of the snapshot this long after the start... */
export const VANISH_AFTER = 2 * DAY;
/** ...and is restocked this long after the start. */
export const RESTOCK_AFTER = 4 * DAY;
/** Quantities of the vanishing row before it vanishes and after it is restocked. */
export const VANISHING_QTY = { before: 6, after: 12 };
/** An IN's detail breaks this long before its list row's status move... */
const BREAK_BEFORE_MOVE = 60;
/** ...and heals this long after it (minutes). */
const HEAL_AFTER_MOVE = 1440;
/** Chosen INs move at least this long after the start, so a sync at the start stores them intact. */
const MOVE_NOT_BEFORE = 120;

/** An IN of the scenario: its key and when its detail answer is broken. */
export interface TransferTarget {
  supplierId: string;
  orderNumber: string;
  from: number;
  until?: number;
  moveAt?: number;
}

/** What is chosen from the world as it is at the start. */
export interface StartTargets {
  supplierId: string;
  accountNumber: string;
  start: number;
  /** The IN whose detail answers a malformed line (undefined: the first IN generated later). */
  malformedIn: TransferTarget | undefined;
  /** The IN whose detail answers 404 (undefined: an IN created later). */
  missingIn: TransferTarget | undefined;
  malformedProductSku: string;
  missingProductSku: string;
  /** The inventory row served with a wrong-typed quantity, and the row of its warehouse that vanishes. */
  wrongTypeKey: string;
  vanishing: InventoryRow;
}

/**
 * Every target of the scenario as far as the world has produced it (a target is undefined while its
 * record does not exist, or when its kind is switched off).
 */
export interface ResolvedTargets
  extends Omit<StartTargets, 'malformedProductSku' | 'missingProductSku' | 'wrongTypeKey' | 'vanishing'> {
  malformedProductSku: string | undefined;
  missingProductSku: string | undefined;
  wrongTypeKey: string | undefined;
  vanishing: InventoryRow | undefined;
  /** The tracking event that carries the NUL; `from` once it is visible. */
  nul: { containerId: string; eventTime: number; from: number | undefined } | undefined;
  surrogate: { containerId: string; from: number } | undefined;
  order503: { accountNumber: string; orderNumber: string; from: number } | undefined;
  overflowInvoice: { invoiceNumber: string; from: number } | undefined;
  oversizedInvoice: { invoiceNumber: string; from: number } | undefined;
  deepReturn: { shipReturnId: number; from: number } | undefined;
}

/** Chooses the records that exist at `start` (the world has caught up to it). */
export function chooseAtStart(world: World, start: number): StartTargets {
  const supplier = world.suppliers[0];
  if (!supplier) throw new Error('the poison scenario needs at least one supplier');
  const startMinute = minuteOf(start);
  const moves = pendingStatusMoves(world, supplier.id, startMinute + MOVE_NOT_BEFORE);
  const malformed = moves[0];
  const malformedIn = malformed && brokenAroundMove(supplier.id, malformed.orderNumber, malformed.minute);
  const missing =
    moves.find((m) => m.orderNumber !== malformed?.orderNumber)?.orderNumber ??
    newestTransferIn(world, supplier.id, malformed?.orderNumber)?.orderNumber;
  const products = [...world.products.values()]
    .filter((p) => p.supplierId === supplier.id)
    .sort((a, b) => (a.sku < b.sku ? -1 : 1));
  const skuOf = (type: string, fallback: number) =>
    (products.find((p) => p.itemTypeCode === type) ?? products[fallback])?.sku ?? '';
  const wrongType = wrongTypeRow(world, supplier.id);
  return {
    supplierId: supplier.id,
    accountNumber: supplier.accountNumber,
    start,
    malformedIn,
    missingIn:
      missing === undefined ? undefined : { supplierId: supplier.id, orderNumber: missing, from: start },
    malformedProductSku: skuOf('PTO', 0),
    missingProductSku: skuOf('ACC', 1),
    wrongTypeKey: inventoryKey(wrongType.supplierId, wrongType.warehouseCode, 'FG', wrongType.sku),
    vanishing: vanishingRow(world, wrongType),
  };
}

/** Status moves (SUBMIT, PROCESS) of a supplier's INs planned at or after `fromMinute`, soonest first. */
function pendingStatusMoves(
  world: World,
  supplierId: string,
  fromMinute: number,
): Array<{ orderNumber: string; minute: number }> {
  const moves: Array<{ orderNumber: string; minute: number }> = [];
  for (const [minute, tasks] of world.agenda) {
    if (minute < fromMinute) continue;
    for (const task of tasks)
      if (
        task.kind === 'transferIn' &&
        task.supplierId === supplierId &&
        (task.step === 'SUBMIT' || task.step === 'PROCESS')
      )
        moves.push({ orderNumber: task.orderNumber, minute });
  }
  return moves.sort((a, b) => a.minute - b.minute || (a.orderNumber < b.orderNumber ? -1 : 1));
}

function brokenAroundMove(supplierId: string, orderNumber: string, moveMinute: number): TransferTarget {
  return {
    supplierId,
    orderNumber,
    from: (moveMinute - BREAK_BEFORE_MOVE) * MINUTE,
    until: (moveMinute + HEAL_AFTER_MOVE) * MINUTE,
    moveAt: moveMinute * MINUTE,
  };
}

function newestTransferIn(
  world: World,
  supplierId: string,
  except: string | undefined,
): TransferIn | undefined {
  let newest: TransferIn | undefined;
  for (const t of world.transfersIn.values())
    if (t.supplierId === supplierId && t.orderNumber !== except && (!newest || t.rowId > newest.rowId))
      newest = t;
  return newest;
}

/**
 * The first IN generated at or after the start (when none was open at the start): its detail breaks
 * an hour before it is submitted (not before it exists) and heals a day after.
 */
export function laterMalformedIn(world: World, t: StartTargets): TransferTarget | undefined {
  for (const transfer of world.transfersIn.values()) {
    if (transfer.supplierId !== t.supplierId || transfer.createdAt < t.start) continue;
    if (transfer.createdBy === 'api') continue; // POSTed INs are never submitted: their list row never moves
    const submit = submitMinute(world, transfer);
    if (submit === undefined) continue;
    const target = brokenAroundMove(t.supplierId, transfer.orderNumber, submit);
    return { ...target, from: Math.max(target.from, transfer.createdAt) };
  }
  return undefined;
}

/** The minute an IN is (or was) submitted: its planned SUBMIT task, or its submittedAt. */
function submitMinute(world: World, transfer: TransferIn): number | undefined {
  if (transfer.submittedAt !== null) return minuteOf(transfer.submittedAt);
  for (const [minute, tasks] of world.agenda)
    for (const task of tasks)
      if (
        task.kind === 'transferIn' &&
        task.step === 'SUBMIT' &&
        task.supplierId === transfer.supplierId &&
        task.orderNumber === transfer.orderNumber
      )
        return minute;
  return undefined;
}

/** The first IN created at or after the start other than `except` (when none existed at the start). */
export function laterMissingIn(
  world: World,
  t: StartTargets,
  except: string | undefined,
): TransferTarget | undefined {
  for (const transfer of world.transfersIn.values())
    if (
      transfer.supplierId === t.supplierId &&
      transfer.createdAt >= t.start &&
      transfer.orderNumber !== except
    )
      return { supplierId: t.supplierId, orderNumber: transfer.orderNumber, from: transfer.createdAt };
  return undefined;
}

/** A stocked finished-goods wine row of the supplier, picked by the seed. */
function wrongTypeRow(world: World, supplierId: string): InventoryRow {
  const rows = [...world.inventory.entries()]
    .filter(
      ([, r]) =>
        r.supplierId === supplierId &&
        r.subInventoryCode === 'FG' &&
        !r.dropped &&
        r.qtyOnHand > 0 &&
        world.products.get(`${supplierId}|${r.sku}`)?.itemTypeCode === 'WINE',
    )
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, r]) => r);
  if (rows.length === 0) throw new Error(`the poison scenario found no stocked wine of ${supplierId}`);
  return Rng.of(world.seed, 'poison', 'inventory').pick(rows);
}

/**
 * The row that really vanishes: quality-hold stock of another wine in the same warehouse. The world
 * creates QA rows only in its opening stock, so a key it does not hold at the start is never created
 * by it later, and the row can come and go without touching anything the world's randomness reads.
 */
function vanishingRow(world: World, beside: InventoryRow): InventoryRow {
  const free = [...world.products.values()]
    .filter(
      (p) =>
        p.supplierId === beside.supplierId &&
        p.sku !== beside.sku &&
        // A gift set's detail lists its stock rows (bomInventories): leave those to the world.
        p.itemTypeCode !== 'GSET' &&
        !world.inventory.has(inventoryKey(p.supplierId, beside.warehouseCode, 'QA', p.sku)),
    )
    .sort(
      (a, b) =>
        Number(b.itemTypeCode === 'WINE') - Number(a.itemTypeCode === 'WINE') || (a.sku < b.sku ? -1 : 1),
    );
  const product = free[0];
  if (!product)
    throw new Error(`the poison scenario found no free quality-hold row in ${beside.warehouseCode}`);
  return {
    supplierId: beside.supplierId,
    warehouseCode: beside.warehouseCode,
    subInventoryCode: 'QA',
    sku: product.sku,
    qtyOnHand: VANISHING_QTY.before,
    qtyOnOrders: 0,
    qtyOnIns: 0,
    dropped: false,
  };
}

/** The vanishing row as the snapshot lists it at `now`, or undefined while it is gone. */
export function vanishingRowAt(row: InventoryRow, start: number, now: number): InventoryRow | undefined {
  if (now < start + VANISH_AFTER) return row;
  if (now < start + RESTOCK_AFTER) return undefined;
  return { ...row, qtyOnHand: VANISHING_QTY.after };
}

/** The first `count` shipments of the account shipped at or after `start` (fewer while they do not exist). */
export function shipmentsSince(world: World, account: string, start: number, count: number): Shipment[] {
  return firstOf(world.shipments.values(), (s) => s.accountNumber === account && s.shipDate >= start, count);
}

/** The first `count` invoices of the account dated at or after `start`, by number. */
export function invoicesSince(world: World, account: string, start: number, count: number): Invoice[] {
  return firstOf(
    world.invoices.values(),
    (i) => i.accountNumber === account && i.invoiceDate >= start,
    count,
  );
}

/** The first return of the account opened at or after `start`. */
export function returnSince(world: World, account: string, start: number): Return | undefined {
  return firstOf(world.returns.values(), (r) => r.accountNumber === account && r.returnDate >= start, 1)[0];
}

/** The first `count` values that pass `keep`, in order (the world's maps keep creation order). */
function firstOf<T>(values: Iterable<T>, keep: (value: T) => boolean, count: number): T[] {
  const out: T[] = [];
  for (const value of values) {
    if (out.length === count) break;
    if (keep(value)) out.push(value);
  }
  return out;
}
