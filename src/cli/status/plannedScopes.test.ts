import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/loadConfig.ts';
import { withPlannedScopes } from './plannedScopes.ts';

const rows = [
  { stream: 'shipments', scope: 'ACC1' },
  { stream: 'orders', scope: 'ACC1' },
  { stream: 'inventory', scope: 'SUP1' },
  { stream: 'products', scope: 'SUP2' },
];

describe('the scopes status plans the polling for', () => {
  it('in sandbox mode (no scope configured): the scopes the sync stored, by kind', () => {
    const config = withPlannedScopes(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db' }), rows);
    expect({ suppliers: config.supplierIds, accounts: config.accountNumbers }).toEqual({
      suppliers: ['SUP1', 'SUP2'],
      accounts: ['ACC1'],
    });
  });

  it('with scopes configured: those, whatever is stored', () => {
    const configured = loadConfig({
      DATABASE_URL: 'postgres://x@127.0.0.1/db',
      FULFILLMENT_API_URL: 'https://api.example.test',
      FULFILLMENT_API_TOKEN: 'token',
      FULFILLMENT_SUPPLIER_IDS: 'SUP9',
      FULFILLMENT_ACCOUNT_NUMBERS: 'ACC9',
    });
    expect(withPlannedScopes(configured, rows)).toBe(configured);
  });
});
