import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which webhook targets may be reached. Only globally routable unicast addresses pass: loopback,
 * private (RFC 1918, fc00::/7), link-local (169.254/16 with the cloud metadata address, fe80::/10),
 * unspecified, CGNAT (100.64/10), multicast, reserved and documentation ranges are refused, and IPv6
 * forms that carry an IPv4 address (IPv4-compatible, IPv4-mapped and -translated, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged as that IPv4 address, however they are spelled; Teredo
 * and local-use NAT64 (64:ff9b:1::/48), whose IPv4 cannot be read reliably, are refused: a webhook
 * URL is user input and must not become a way into the worker's network. Pure; the env switch
 * WEBHOOK_ALLOW_PRIVATE_TARGETS (local receivers, tests) lifts it.
 */
export interface TargetPolicy {
  allowPrivateTargets: boolean;
}

/** ipaddr.js range names, said the way an operator would. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  linkLocal: 'a link-local address',
  unspecified: 'the unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

/**
 * Why an IP address may not be a webhook target, or undefined when it may. An IPv6 address that
 * carries an IPv4 one (see `carriedIPv4`) is judged as that IPv4 address.
 */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const carried = parsed.kind() === 'ipv6' ? carriedIPv4(parsed as ipaddr.IPv6) : undefined;
  const judged = carried ?? parsed;
  const range = judged.range();
  if (range === 'unicast') return undefined;
  const metadata = isCloudMetadata(judged.toString()) ? ' (cloud metadata service)' : '';
  const spelled = carried ? ` (as ${parsed.toString()})` : '';
  return `${judged.toString()} is ${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}${metadata}${spelled}`;
}

/** IPv6 prefixes whose last 32 bits are an IPv4 address. */
const LAST_32_BITS_IPV4: ReadonlyArray<[ipaddr.IPv6, number]> = [
  ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number], // IPv4-compatible (deprecated, RFC 4291)
  ipaddr.parseCIDR('::ffff:0:0/96') as [ipaddr.IPv6, number], // IPv4-mapped
  ipaddr.parseCIDR('::ffff:0:0:0/96') as [ipaddr.IPv6, number], // IPv4-translated (RFC 6145)
  ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number], // NAT64 well-known prefix (RFC 6052)
];
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16') as [ipaddr.IPv6, number];

/**
 * The IPv4 address an IPv6 address carries, if it is one of the forms that do: the last 32 bits of
 * ::/96 (but :: and ::1, IPv6's own unspecified and loopback), ::ffff:0:0/96, ::ffff:0:0:0/96 and
 * 64:ff9b::/96; bits 16-47 of 6to4 (2002::/16).
 */
export function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (address.match(SIX_TO_FOUR)) return new ipaddr.IPv4(bytes.slice(2, 6));
  if (!LAST_32_BITS_IPV4.some((cidr) => address.match(cidr))) return undefined;
  const range = address.range();
  if (range === 'unspecified' || range === 'loopback') return undefined;
  return new ipaddr.IPv4(bytes.slice(12, 16));
}

function isCloudMetadata(address: string): boolean {
  return ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200'].includes(address);
}

/** The host of a URL as an IP address when it is one (brackets of IPv6 literals removed). */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

/** Names that always mean this machine (RFC 6761), refused without asking DNS. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Why a URL may not be a webhook target before any DNS lookup (literal address, localhost, then
 * scheme), or undefined. https is required unless private targets are allowed. A name is checked
 * again after resolution, at every delivery (see safeLookup.ts).
 */
export function urlRefusal(url: URL, policy: TargetPolicy): string | undefined {
  if (policy.allowPrivateTargets) return undefined;
  const literal = ipLiteral(url.hostname);
  const addressProblem =
    literal !== undefined
      ? addressRefusal(literal)
      : isLocalhostName(url.hostname)
        ? `${url.hostname} is this machine`
        : undefined;
  if (addressProblem) return refusedTarget(addressProblem);
  if (url.protocol !== 'https:') {
    return 'webhook URLs must use https (http is allowed only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)';
  }
  return undefined;
}

/** The one wording of a refusal, naming the switch that lifts it. */
export function refusedTarget(why: string): string {
  return `refused target: ${why}; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private targets`;
}
