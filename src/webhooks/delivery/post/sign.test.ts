import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { validateEndpointUrl } from '../../endpoints/endpointUrl.ts';
import { generateSecret, maskSecret } from '../../endpoints/secret.ts';
import { signDelivery } from './sign.ts';

describe('signing', () => {
  it('produces headers the reference library verifies', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: 'evt_1', type: 'shipment.delivered' });
    const headers = signDelivery(secret, 'evt_1', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, { ...headers })).toThrow();
  });

  it('signs with every secret given, space-separated, each verifying on its own', () => {
    const [older, newer] = [generateSecret(), generateSecret()];
    const body = '{"id":"evt_2"}';
    const headers = signDelivery([newer, older], 'evt_2', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(newer).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(older).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, { ...headers })).toThrow();
  });

  it('masks secrets for display', () => {
    expect(maskSecret('whsec_abcdefgh1234')).toBe('whsec_****1234');
  });

  it('accepts only http(s) URLs without credentials', () => {
    const local = { allowPrivateTargets: true };
    expect(validateEndpointUrl('https://example.com/hook', local)).toBe('https://example.com/hook');
    expect(validateEndpointUrl('http://127.0.0.1:8080/x', local)).toBe('http://127.0.0.1:8080/x');
    expect(() => validateEndpointUrl('ftp://example.com', local)).toThrow(/http or https/);
    expect(() => validateEndpointUrl('not a url', local)).toThrow(/not a URL/);
    expect(() => validateEndpointUrl('https://user:pw@example.com', local)).toThrow(/credentials/);
  });
});
