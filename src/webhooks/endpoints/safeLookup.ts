import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRefusal, refusedTarget, type TargetPolicy } from './targetPolicy.ts';

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the system resolver by default; tests inject one). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo, so /etc/hosts counts), every address. */
export const systemResolve: Resolve = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A target whose name resolved to an address the policy refuses. */
export class RefusedTargetError extends Error {
  override name = 'RefusedTargetError';
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
}

/**
 * Resolves `hostname` and checks every address it has: one refused address refuses the name (a
 * name that mixes public and private addresses is how rebinding is staged).
 */
export async function resolveChecked(
  hostname: string,
  policy: TargetPolicy,
  resolve: Resolve = systemResolve,
): Promise<ResolvedAddress[]> {
  const addresses = await resolve(hostname);
  if (addresses.length === 0) throw new Error(`${hostname} has no address`);
  if (!policy.allowPrivateTargets) {
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) throw new RefusedTargetError(refusedTarget(`${hostname} resolves to ${refusal}`));
    }
  }
  return addresses;
}

/**
 * A `lookup` for net/tls connections that resolves once, checks the answer and hands exactly the
 * checked addresses to the socket: the connection goes to what was checked, so a name that
 * answers differently a moment later (DNS rebinding) cannot slip a private address in.
 */
export function safeLookup(policy: TargetPolicy, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, policy, resolve).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        const first = usable[0];
        if (!first) {
          callback(
            Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: 'ENOTFOUND' }),
            '',
          );
          return;
        }
        // net asks for every address when it may try several (autoSelectFamily), else for one.
        if (options.all) (callback as unknown as (e: null, all: ResolvedAddress[]) => void)(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
