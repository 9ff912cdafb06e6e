import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/configError.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { roleNameProblem } from '../../src/db/roleName.ts';

describe('reader role names', () => {
  it('accept plain lowercase identifiers up to 63 characters', () => {
    for (const name of ['bi_reader', '_metabase', 'r2', 'a'.repeat(63)])
      expect(roleNameProblem(name)).toBe(undefined);
  });

  it('refuse what would be quoted, folded, truncated or reserved', () => {
    for (const name of [
      'BI',
      'bi-reader',
      'bi reader',
      '2bi',
      '',
      'x"y',
      'a'.repeat(64),
      'pg_bi',
      'public',
      'none',
    ]) {
      expect(roleNameProblem(name), name).toMatch(/^must/);
    }
  });

  it('FULFILLMENT_READER_ROLE: blank is unset, a bad name is a configuration problem naming the variable', () => {
    expect(loadConfig({ FULFILLMENT_READER_ROLE: '  ' }).readerRole).toBe(undefined);
    expect(loadConfig({ FULFILLMENT_READER_ROLE: 'bi_reader' }).readerRole).toBe('bi_reader');
    try {
      loadConfig({ FULFILLMENT_READER_ROLE: 'Bi-Reader' });
      expect.unreachable('a bad role name must be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^FULFILLMENT_READER_ROLE: must be a lowercase role name.*"Bi-Reader"$/),
      ]);
    }
  });
});
