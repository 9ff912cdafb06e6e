import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PATTERN_ARRAY,
  PERSONAL_PATTERNS,
  PERSONAL_SHAPES,
  type PersonalShape,
} from '../../src/db/pii/patterns.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * The value patterns of the second pass as Postgres reads them (sync.pii_looks_personal, which the
 * masking views and sync.pii_mask_json call, and the single expressions pii-audit counts with):
 * what a consumer's data looks like is caught, what the warehouse holds besides is not.
 */

const PERSONAL: Record<PersonalShape, string[]> = {
  email: ['jane@x.com', 'Contact: Jane.Roe+1@mail.example.org now', 'A.B@Example.CO.UK'],
  phone: [
    '555-0123',
    '(555) 123-4567',
    '+1 555 123 4567',
    '555.123.4567',
    '1-555-123-4567',
    '+44 20 7946 0958',
    'call 415-555-0199 after 5',
  ],
  street: [
    '123 Main St',
    '4500 Oak Ave',
    '12 North Cedar Lane',
    '742 Evergreen Terrace',
    'PO Box 12',
    'P.O. Box 7',
    'Apt 4B',
    'Suite 200',
    '1600 Pennsylvania Avenue NW',
  ],
};

/** Values the warehouse holds that are not personal: none may be taken for one. */
const NOT_PERSONAL = [
  '97205-1234',
  '97205',
  '2026-03-02T08:00:00Z',
  '2026-03-02T08:00:00.000-08:00',
  '1Z1234567891001',
  '9400123456789012345678',
  'https://track.carriera.example/1Z123456789100',
  '012345678905',
  'SO-100-1234',
  'W100-000002',
  'B20260302',
  '70000002',
  'C10000003',
  'Cabernet Sauvignon 750 2019',
  '6 ct pack',
  'Backordered: no stock on hand',
  'Shipped in C000123',
  'Hold ADDRESS_CHECK released',
  '13.5',
  '750',
  'ACC100',
  'Oak Ridge Wine Club',
  'Green Island',
  'Finished Goods',
  'Packing slip 1',
];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

async function shapesOf(value: string): Promise<{ looksPersonal: boolean; shapes: PersonalShape[] }> {
  const { rows } = await t.pool.query<{ looks: boolean; email: boolean; phone: boolean; street: boolean }>(
    `SELECT sync.pii_looks_personal($1, $2) AS looks, $1 ~* $3 AS email, $1 ~* $4 AS phone, $1 ~* $5 AS street`,
    [value, [...PATTERN_ARRAY], PERSONAL_PATTERNS.email, PERSONAL_PATTERNS.phone, PERSONAL_PATTERNS.street],
  );
  const row = rows[0]!;
  return { looksPersonal: row.looks, shapes: PERSONAL_SHAPES.filter((shape) => row[shape]) };
}

describe('the personal value patterns', () => {
  it('catch e-mails, phones and street lines, each as its own shape', async () => {
    for (const shape of PERSONAL_SHAPES) {
      for (const value of PERSONAL[shape]) {
        expect(await shapesOf(value), value).toEqual({ looksPersonal: true, shapes: [shape] });
      }
    }
  });

  it('leave dates, ZIP+4 codes, tracking numbers, URLs, SKUs, order numbers and product texts alone', async () => {
    for (const value of NOT_PERSONAL) {
      expect(await shapesOf(value), value).toEqual({ looksPersonal: false, shapes: [] });
    }
  });
});
