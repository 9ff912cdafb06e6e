import { describe, expect, it } from 'vitest';
import type { OrderDetail } from '../api/records/index.ts';
import { type OrderRecord, ordersStream } from '../streams/orders.ts';
import { childAbsence, childSetPolicy } from './childAbsence.ts';
import { shapeOf } from './columns.ts';
import { isLargeShrink, judgeShrink } from './shrinkRule.ts';
import type { RowContext } from './types.ts';

const ctx: RowContext = {
  scope: { kind: 'account', id: 'ACC1' },
  timezone: 'America/Los_Angeles',
  now: new Date('2026-06-02T18:00:00Z'),
};
const children = ordersStream.entity.children ?? [];
const shapes = children.map((c) => shapeOf(c.table, c.key));
const hold = (name: string) => ({
  holdName: name,
  creationDate: '2026-06-01T11:00:00',
  isDirectlyReleasable: true,
});
const order = (detail: Partial<OrderDetail>): OrderRecord => ({
  orderNumber: 'O1',
  detail: { header: { accountNumber: 'ACC1', orderNumber: 'O1' }, ...detail } as OrderDetail,
});
/** The child rows `record` would store, per child table: what "stored" looks like after writing it. */
const rowsOf = (record: OrderRecord) => children.map((c) => c.rows(record, ctx));

describe('childAbsence', () => {
  const stored = rowsOf(order({ holds: [hold('CREDIT'), hold('AGE')], lineItems: [{ lineNumber: '1' }] }));

  it('an answer naming every stored child omits nothing, whatever it adds or changes', () => {
    const answer = order({
      holds: [hold('CREDIT'), hold('AGE'), hold('NEW')],
      lineItems: [{ lineNumber: '1', sku: 'changed' }],
    });
    expect(childAbsence(children, shapes, answer, ctx, stored)).toEqual({ held: 3, missing: new Set() });
  });

  it('names each stored child an answer omits, per table', () => {
    const answer = order({ holds: [hold('AGE')], lineItems: [] });
    const absence = childAbsence(children, shapes, answer, ctx, stored);
    expect(absence.held).toBe(3);
    expect(absence.missing.size).toBe(2);
    expect([...absence.missing].map((k) => k.split('\u0002')[0]).sort()).toEqual([
      'order_holds',
      'order_lines',
    ]);
  });

  it('a record with nothing stored has nothing to omit', () => {
    expect(childAbsence(children, shapes, order({}), ctx, [])).toEqual({ held: 0, missing: new Set() });
  });
});

describe('the child-set threshold', () => {
  const policy = childSetPolicy({ rereads: 2 });
  it('any omission of a child set is a shrink to confirm, one hold of two included', () => {
    expect(isLargeShrink(1, 1, policy)).toBe(true);
    expect(isLargeShrink(1, 2, policy)).toBe(true);
    expect(isLargeShrink(1, 9, policy)).toBe(true);
    expect(isLargeShrink(0, 9, policy)).toBe(false);
  });

  it('is judged by the one rule: read again, agree, or withhold', () => {
    const gone = new Set(['h']);
    expect(judgeShrink([gone], 1, policy)).toEqual({ kind: 'reread' });
    expect(judgeShrink([gone, new Set()], 1, policy)).toEqual({ kind: 'vanish', gone: new Set() });
    expect(judgeShrink([gone, new Set(['h'])], 1, policy)).toEqual({ kind: 'vanish', gone });
    const other = new Set(['l']);
    expect(judgeShrink([gone, other, gone], 2, policy)).toEqual({ kind: 'withhold', kept: 1 });
  });
});
