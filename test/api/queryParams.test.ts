import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.ts';
import {
  DEFAULT_QUERY_PARAMS,
  QueryParamOverrideError,
  resolveQueryParams,
} from '../../src/api/queryParams.ts';

describe('query-parameter table', () => {
  it('covers exactly the operations that take query parameters (docs/upstream-api.md, section 4), all real ones', () => {
    expect(Object.keys(DEFAULT_QUERY_PARAMS)).toHaveLength(11);
    for (const op of Object.keys(DEFAULT_QUERY_PARAMS)) expect(OPERATIONS).toHaveProperty([op]);
    expect(Object.keys(OPERATIONS)).toHaveLength(17);
  });

  it('merges overrides over defaults', () => {
    const table = resolveQueryParams({ 'GET Inventories/Owned': { onHandOnly: 'onHand' } });
    expect(table['GET Inventories/Owned'].onHandOnly).toBe('onHand');
    expect(table['GET Inventories/Owned'].supplierId).toBe('supplierId');
  });

  it('names every problem at once', () => {
    try {
      resolveQueryParams({
        'GET Unknown': { a: 'b' },
        'GET Finances/invoices': { since: 'x', beginDate: 'invoiceNumber' },
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(QueryParamOverrideError);
      const problems = (error as QueryParamOverrideError).problems;
      expect(problems).toHaveLength(3);
      expect(problems.join('\n')).toMatch(/unknown operation "GET Unknown"/);
      expect(problems.join('\n')).toMatch(/no parameter "since"/);
      expect(problems.join('\n')).toMatch(/two parameters named invoiceNumber/);
    }
  });
});
