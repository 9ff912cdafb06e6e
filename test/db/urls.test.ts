import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { databaseNameOf, effectiveUrl, quoteIdent, withDatabase } from '../../src/db/urls.ts';

describe('database URL helpers', () => {
  it('read and replace the database name, keeping credentials and options', () => {
    const url = 'postgres://u:p%40ss@db.example:6543/fulfillment?sslmode=require';
    expect(databaseNameOf(url)).toBe('fulfillment');
    expect(withDatabase(url, 'postgres')).toBe(
      'postgres://u:p%40ss@db.example:6543/postgres?sslmode=require',
    );
    expect(() => databaseNameOf('postgres://db.example:5432')).toThrow(/names no database/);
  });

  it('fill in the OS user only when neither the URL nor PGUSER/USER names one', () => {
    const url = 'postgres://localhost:5432/fulfillment';
    expect(effectiveUrl(url, {})).toBe(`postgres://${userInfo().username}@localhost:5432/fulfillment`);
    expect(effectiveUrl(url, { USER: 'alice' })).toBe(url);
    expect(effectiveUrl(url, { PGUSER: 'bob' })).toBe(url);
    expect(effectiveUrl('postgres://carol@localhost:5432/x', {})).toBe('postgres://carol@localhost:5432/x');
  });

  it('quote identifiers', () => {
    expect(quoteIdent('we"ird')).toBe('"we""ird"');
  });
});
