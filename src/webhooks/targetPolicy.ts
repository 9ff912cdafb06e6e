import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which webhook targets may be reached. Only globally routable unicast addresses pass: loopback,
 * private (RFC 1918, fc00::/7), link-local (169.254/16 with the cloud metadata address, fe80::/10),
 * unspecified, CGNAT (100.64/10), multicast, reserved and documentation ranges, and IPv6 forms that
 * embed an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) are refused: a webhook URL is user
 * input and must not become a way into the worker's network. Pure; the env switch
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
 * Why an IP address may not be a webhook target, or undefined when it may. IPv4-mapped IPv6
 * addresses are judged as the IPv4 address they carry.
 */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  const metadata = isCloudMetadata(parsed.toString()) ? ' (cloud metadata service)' : '';
  return `${parsed.toString()} is ${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}${metadata}`;
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
