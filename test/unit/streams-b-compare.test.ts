import { describe, expect, it } from 'vitest';
import { inventoryActivity } from '../../src/db/schema/inventoryActivity.ts';
import { transfersIn } from '../../src/db/schema/transfersIn.ts';
import { recordMismatches, tableMismatches } from '../sync/streams-b-compare.ts';

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

  it('reports missing rows and rows the truth does not have', () => {
    const problems = tableMismatches({
      table: inventoryActivity,
      rows: [{ sku: 'B', qty_shipped: 1 }],
      rowKey: (r) => String(r.sku),
      records: [{ sku: 'A', qtyShipped: 1 }],
      recordKey: (r) => r.sku,
      fields: (r) => r,
      timezone: tz,
    });
    expect(problems).toEqual(['inventory_activity A: missing', 'inventory_activity B: not in truth']);
  });
});
