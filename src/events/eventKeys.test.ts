import { describe, expect, it } from 'vitest';
import type { OwnedInventory, TransferOut } from '../api/records/index.ts';
import { deriveEvents } from './derive.ts';
import { eventId } from './eventId.ts';
import { subjectKey } from './makeEvent.ts';
import { testContext } from './testContext.ts';

/**
 * Every key that makes an event id is collision-free: two records whose key parts differ only in
 * where a separator falls get different subject keys and ids (one of them used to be dropped as a
 * duplicate), and keys without separators keep the ids they always had.
 */

const ctx = testContext();
const stock = (
  warehouseCode: string,
  subInventoryCode: string,
  sku: string,
  qty: number,
): OwnedInventory => ({
  warehouseCode,
  subInventoryCode,
  sku,
  qtyOnHand: qty,
  qtyAvailableToSell: qty,
});

describe('event keys', () => {
  it("two inventory items whose codes differ only in where a ':' falls have different ids", () => {
    const [a] = deriveEvents('inventory', null, stock('GLW', 'FG:A', 'B', 5), ctx);
    const [b] = deriveEvents('inventory', null, stock('GLW', 'FG', 'A:B', 5), ctx);
    expect(a?.subject.key).not.toBe(b?.subject.key);
    expect(a?.id).not.toBe(b?.id);
  });

  it("a key part ending in '\\' cannot pass for an escape either", () => {
    expect(subjectKey('a\\', 'b')).not.toBe(subjectKey('a', '\\b'));
    expect(subjectKey('a\\:b')).not.toBe(subjectKey('a\\', 'b'));
  });

  it("a subject key holding '|' cannot shift into the transition of the dedupe key", () => {
    const out = (orderNumber: string): TransferOut => ({
      supplierId: 'SUP1',
      orderNumber,
      statusCode: 'NEW',
    });
    const changed = (from: string, orderNumber: string) =>
      deriveEvents('transfer_out', { ...out(orderNumber), statusCode: from }, out(orderNumber), ctx)[0];
    // Same type; key 'SUP1:O|X' + transition 'Y>NEW@...' vs key 'SUP1:O' + transition 'X|Y>NEW@...'.
    expect(changed('Y', 'O|X')?.id).not.toBe(changed('X|Y', 'O')?.id);
  });

  it("two status changes that differ only in where a '>' falls in the codes have different ids", () => {
    const out = (statusCode: string): TransferOut => ({ supplierId: 'SUP1', orderNumber: 'O1', statusCode });
    const [a] = deriveEvents('transfer_out', out('A>B'), out('C'), ctx);
    const [b] = deriveEvents('transfer_out', out('A'), out('B>C'), ctx);
    expect(a?.id).not.toBe(b?.id);
  });

  it('keeps the id of every key without a separator: an event found again keeps its id', () => {
    const out: TransferOut = { supplierId: 'SUP1', orderNumber: 'O1', statusCode: 'NEW' };
    const [created] = deriveEvents('transfer_out', null, out, ctx);
    expect(created?.id).toBe(eventId('transfer_out.created|SUP1:O1|created'));
    const [changed] = deriveEvents('transfer_out', out, { ...out, statusCode: 'SHIPPED' }, ctx);
    expect(changed?.id).toBe(
      eventId(`transfer_out.status_changed|SUP1:O1|NEW>SHIPPED@${ctx.detectedAt.toISOString()}`),
    );
  });
});
