import { RefusedTargetError, type Resolve, resolveChecked } from './safeLookup.ts';
import { ipLiteral, type TargetPolicy, urlRefusal } from './targetPolicy.ts';

/** A webhook URL that is not http(s), not a URL at all, or a refused target. */
export class InvalidEndpointUrlError extends Error {
  override name = 'InvalidEndpointUrlError';
}

/**
 * The URL normalised, or InvalidEndpointUrlError: only absolute http(s) URLs without credentials,
 * https unless private targets are allowed, and no literal private, loopback or link-local
 * address (numeric forms such as 0x7f000001 or [::ffff:127.0.0.1] are normalised first, so they
 * are judged as the address they are).
 */
export function validateEndpointUrl(input: string, policy: TargetPolicy): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch (cause) {
    throw new InvalidEndpointUrlError(`"${input}" is not a URL: give an absolute http(s) URL.`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidEndpointUrlError(`Webhook URLs must use http or https, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    // Credentials in the URL would be stored and listed in clear; the signature authenticates us.
    throw new InvalidEndpointUrlError(
      'Webhook URLs must not contain credentials: verify the signature instead.',
    );
  }
  const refusal = urlRefusal(url, policy);
  if (refusal) throw new InvalidEndpointUrlError(`${url.toString()}: ${refusal}`);
  return url.toString();
}

/**
 * `validateEndpointUrl`, then what the host name resolves to now: a name resolving to a refused
 * address is refused. A name that does not resolve yet is accepted with a note (receivers are
 * often set up after their endpoint); every delivery resolves and checks it again anyway.
 */
export async function checkEndpointUrl(
  input: string,
  policy: TargetPolicy,
  resolve?: Resolve,
): Promise<{ url: string; note: string | undefined }> {
  const url = validateEndpointUrl(input, policy);
  const { hostname } = new URL(url);
  if (policy.allowPrivateTargets || ipLiteral(hostname) !== undefined) return { url, note: undefined };
  try {
    await resolveChecked(hostname, policy, resolve);
    return { url, note: undefined };
  } catch (error) {
    if (error instanceof RefusedTargetError) throw new InvalidEndpointUrlError(`${url}: ${error.message}`);
    return {
      url,
      note: `${hostname} does not resolve yet (${(error as Error).message}); it is checked again at every delivery.`,
    };
  }
}
