/** A webhook URL that is not http(s) or not a URL at all. */
export class InvalidEndpointUrlError extends Error {
  override name = 'InvalidEndpointUrlError';
}

/** The URL normalised, or InvalidEndpointUrlError: only absolute http(s) URLs without credentials. */
export function validateEndpointUrl(input: string): string {
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
  return url.toString();
}
