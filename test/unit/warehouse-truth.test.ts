import { describe, expect, it } from 'vitest';
import { inventoryActivity } from '../../src/db/schema/inventoryActivity.ts';
import { returnLines } from '../../src/db/schema/returns.ts';
import { transfersIn } from '../../src/db/schema/transfersIn.ts';
import { recordMismatches, tableMismatches } from '../helpers/warehouseTruth.ts';

const tz = 'America/Los_Angeles';

describe('warehouse-vs-truth comparison', () => {
  it('equates values by column type: wall-clock times as instants, numbers, text', () => {
    const row = {
      submitted_date: new Date('2026-03-01T18:00:00Z'),
      row_id: 7,
      status_code: 'OPEN',
      pickup_site_id: '501',
    };
    const record = {
      submittedDate: '2026-03-01T10:00:00',
      rowId: 7,
      statusCode: 'OPEN',
      pickupSiteId: '501',
    };
    expect(recordMismatches(transfersIn, row, record, tz)).toEqual([]);
  });

  it('reports a differing value, a null against a value, and a field without a column', () => {
    const row = { submitted_date: new Date('2026-03-01T19:00:00Z'), row_id: null, status_code: 'OPEN' };
    const record = { submittedDate: '2026-03-01T10:00:00', rowId: 7, statusCode: 'OPEN', bogusField: 'x' };
    const problems = recordMismatches(transfersIn, row, record, tz);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/submitted_date.*\n.*row_id.*\n.*bogusField/);
  });

  it('reports a value stored where the truth has null', () => {
    const problems = recordMismatches(transfersIn, { status_code: 'OPEN' }, { statusCode: null }, tz);
    expect(problems).toEqual(['status_code: stored OPEN != truth null']);
  });

  it('matches rows by primary key, reporting missing rows and rows the truth does not have', () => {
    const row = (sku: string) => ({
      supplier_id: 'S',
      activity_date: '2026-03-01',
      warehouse_code: 'W',
      sub_inventory_code: 'FG',
      sku,
      qty_shipped: 1,
    });
    const record = (sku: string) => ({
      fields: { activityDate: '2026-03-01', warehouseCode: 'W', subInventoryCode: 'FG', sku, qtyShipped: 1 },
      columns: { supplier_id: 'S' },
    });
    const problems = tableMismatches(
      { table: inventoryActivity, records: [record('A'), record('C')] },
      [row('B'), row('C')],
      tz,
    );
    expect(problems).toEqual([
      'inventory_activity S|2026-03-01|W|FG|A: missing',
      'inventory_activity S|2026-03-01|W|FG|B: not in truth',
    ]);
  });

  it('keys a null integer key part as the stored 0, and still compares the other fields', () => {
    const stored = { ship_return_id: 9, line_number: 1, component_number: 0, quantity_returned: 2 };
    const fields = { shipReturnId: 9, lineNumber: 1, componentNumber: null, quantityReturned: 3 };
    expect(tableMismatches({ table: returnLines, records: [{ fields }] }, [stored], tz)).toEqual([
      'return_lines 9|1|0: quantity_returned: stored 2 != truth 3',
    ]);
  });

  it('accepts extra rows only where the check says they are correct', () => {
    const stored = { ship_return_id: 9, line_number: 1, component_number: 0 };
    const check = { table: returnLines, records: [], extraOk: () => true };
    expect(tableMismatches(check, [stored], tz)).toEqual([]);
  });
});
