import { describe, expect, it } from 'vitest';
import {
  applyHeaderArguments,
  deliveryHeaders,
  EndpointSettingError,
  maskedHeaders,
  parseHeaderArgument,
  parseMetadata,
  parseRateLimit,
} from './endpointSettings.ts';

describe('endpoint settings', () => {
  it('reads NAME=VALUE headers, lower-cased, and refuses what would break or forge a delivery', () => {
    expect(parseHeaderArgument('X-Tenant = acme=1')).toEqual({ name: 'x-tenant', value: 'acme=1' });
    expect(parseHeaderArgument('Authorization=')).toEqual({ name: 'authorization', value: '' });
    // A header written HTTP-style: refused without echoing its value.
    expect(() => parseHeaderArgument('Authorization: Bearer tok_live_123')).toThrow(
      /^--header "Authorization" is not NAME=VALUE/,
    );
    try {
      parseHeaderArgument('Authorization: Bearer tok_live_123');
    } catch (error) {
      expect((error as Error).message).not.toContain('tok_live');
    }
    for (const bad of [
      'no-equals',
      '=value',
      'bad name=1',
      'webhook-id=x',
      'Webhook-Signature=v1,x',
      'webhook-anything=x',
      'Content-Type=text/plain',
      'host=evil',
      'x-a=line\r\nx-b: injected',
      `x-long=${'a'.repeat(2049)}`,
    ]) {
      expect(() => parseHeaderArgument(bad), bad).toThrow(EndpointSettingError);
    }
    expect(applyHeaderArguments({ 'x-a': '1', 'x-b': '2' }, ['x-a=', 'X-C=3'])).toEqual({
      'x-b': '2',
      'x-c': '3',
    });
    const many = Array.from({ length: 21 }, (_, i) => `x-h${i}=v`);
    expect(() => applyHeaderArguments({}, many)).toThrow(/at most 20/);
  });

  it('reads a rate as N/s or N, off removes it, anything else is refused', () => {
    expect(parseRateLimit('50/s')).toBe(50);
    expect(parseRateLimit(' 7 / s ')).toBe(7);
    expect(parseRateLimit('12')).toBe(12);
    expect(parseRateLimit('off')).toBeNull();
    for (const bad of ['0/s', '-3/s', '1.5/s', '10/m', 'fast', '', '10001/s']) {
      expect(() => parseRateLimit(bad), bad).toThrow(/is not a rate/);
    }
  });

  it('takes metadata as a JSON object only', () => {
    expect(parseMetadata('{"team":"ops"}')).toEqual({ team: 'ops' });
    expect(() => parseMetadata('{team:ops}')).toThrow(/^--metadata is not valid JSON/);
    expect(() => parseMetadata('[1]')).toThrow(/must be a JSON object/);
    expect(() => parseMetadata('null')).toThrow(/must be a JSON object/);
    expect(() => parseMetadata(JSON.stringify({ a: 'x'.repeat(5000) }))).toThrow(/larger than 4096/);
  });

  it('sends custom headers under its own, which always win; masks credential-like values for display', () => {
    const headers = deliveryHeaders(
      { 'X-Tenant': 'acme', 'Webhook-Id': 'forged', 'content-type': 'text/plain' },
      { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
    );
    expect(headers).toEqual({
      'x-tenant': 'acme',
      'content-type': 'application/json',
      'webhook-id': 'evt_1',
    });
    expect(
      maskedHeaders({ authorization: 'Bearer abcdefghijkl', 'x-token': 'short', 'x-tenant': 'acme' }),
    ).toEqual({
      authorization: '****ijkl',
      'x-tenant': 'acme',
      'x-token': '****',
    });
  });
});
