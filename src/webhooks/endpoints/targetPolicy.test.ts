import { describe, expect, it } from 'vitest';
import { validateEndpointUrl } from './endpointUrl.ts';
import { addressRefusal, urlRefusal } from './targetPolicy.ts';

const strict = { allowPrivateTargets: false };
const local = { allowPrivateTargets: true };

describe('webhook target policy', () => {
  it.each([
    ['http://127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['http://169.254.169.254', /169\.254\.169\.254 is a link-local address \(cloud metadata service\)/],
    ['http://localhost:5433', /localhost is this machine/],
    ['http://[::1]:6390', /::1 is a loopback address/],
    ['http://0x7f000001', /127\.0\.0\.1 is a loopback address/],
    ['http://10.0.0.1', /10\.0\.0\.1 is a private address/],
    // Other spellings of the same addresses: decimal, octal, short and IPv4-mapped IPv6 forms.
    ['https://2130706433/', /127\.0\.0\.1 is a loopback/],
    ['https://0177.0.0.1/', /127\.0\.0\.1 is a loopback/],
    ['https://127.1/', /127\.0\.0\.1 is a loopback/],
    ['https://[::ffff:127.0.0.1]/', /127\.0\.0\.1 is a loopback/],
    ['https://[::ffff:a9fe:a9fe]/latest/meta-data', /169\.254\.169\.254 .*metadata/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://[fd00:ec2::254]/', /private address \(cloud metadata service\)/],
    ['https://172.16.5.4/', /private/],
    ['https://192.168.1.10/', /private/],
    ['https://[fc00::1]/', /private/],
    ['https://[fe80::1]/', /link-local/],
    ['https://100.64.0.1/', /carrier-grade NAT/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://[::]/', /unspecified/],
    ['https://224.0.0.1/', /multicast/],
    ['https://api.localhost/', /this machine/],
  ])('refuses %s', (url, reason) => {
    expect(() => validateEndpointUrl(url, strict)).toThrow(reason);
    expect(() => validateEndpointUrl(url, strict)).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS=true/);
  });

  it('requires https for public targets unless private targets are allowed', () => {
    expect(() => validateEndpointUrl('http://example.com/hook', strict)).toThrow(/must use https/);
    expect(validateEndpointUrl('https://example.com/hook', strict)).toBe('https://example.com/hook');
    expect(validateEndpointUrl('https://93.184.215.14/hook', strict)).toBe('https://93.184.215.14/hook');
    expect(validateEndpointUrl('https://[2606:4700::1111]/', strict)).toBe('https://[2606:4700::1111]/');
    expect(validateEndpointUrl('http://example.com/hook', local)).toBe('http://example.com/hook');
    expect(validateEndpointUrl('http://0x7f000001:8080/', local)).toBe('http://127.0.0.1:8080/');
  });

  it('judges resolved addresses the same way, IPv4-mapped ones as the IPv4 address they carry', () => {
    expect(addressRefusal('8.8.8.8')).toBeUndefined();
    expect(addressRefusal('2606:4700::1111')).toBeUndefined();
    expect(addressRefusal('::ffff:8.8.8.8')).toBeUndefined();
    expect(addressRefusal('::ffff:10.1.2.3')).toMatch(/10\.1\.2\.3 is a private address/);
    expect(addressRefusal('100.100.100.200')).toMatch(/carrier-grade NAT address \(cloud metadata service\)/);
    expect(urlRefusal(new URL('https://hooks.example.com/x'), strict)).toBeUndefined();
  });

  // The address, not its spelling: every IPv6 form that carries an IPv4 address is judged as that
  // IPv4 address (IPv4-compatible, IPv4-mapped and -translated, NAT64 64:ff9b::/96, 6to4 2002::/16).
  it.each([
    ['::127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::7f00:1', /127\.0\.0\.1 is a loopback address/],
    ['::a9fe:a9fe', /169\.254\.169\.254 is a link-local address \(cloud metadata service\)/],
    ['::0a00:0001', /10\.0\.0\.1 is a private address/],
    ['::ffff:7f00:1', /127\.0\.0\.1 is a loopback address/],
    ['::ffff:0:7f00:1', /127\.0\.0\.1 is a loopback address/],
    ['64:ff9b::7f00:1', /127\.0\.0\.1 is a loopback address/],
    ['64:ff9b::169.254.169.254', /169\.254\.169\.254 .*cloud metadata/],
    ['2002:7f00:1::', /127\.0\.0\.1 is a loopback address/],
    ['2002:a9fe:a9fe:1::5', /169\.254\.169\.254 .*cloud metadata/],
    ['2002:c0a8:0101::1', /192\.168\.1\.1 is a private address/],
  ])('refuses %s as the IPv4 address it carries', (address, reason) => {
    expect(addressRefusal(address)).toMatch(reason);
    expect(() => validateEndpointUrl(`https://[${address}]/hook`, strict)).toThrow(reason);
  });

  it.each(['::8.8.8.8', '::808:808', '64:ff9b::808:808', '2002:808:808::1', '::ffff:8.8.8.8'])(
    'accepts %s: the IPv4 address it carries is public',
    (address) => {
      expect(addressRefusal(address)).toBeUndefined();
    },
  );

  it('still refuses IPv6 special addresses that carry no IPv4 one: ::1, ::, Teredo, local-use NAT64', () => {
    expect(addressRefusal('::1')).toMatch(/loopback/);
    expect(addressRefusal('::')).toMatch(/unspecified/);
    expect(addressRefusal('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toMatch(/teredo/);
    expect(addressRefusal('64:ff9b:1::a9fe:a9fe')).toMatch(/special-purpose/);
  });
});
