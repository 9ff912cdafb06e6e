/**
 * An answer body read as a stream and abandoned past a bound of decoded bytes. `fetch` inflates
 * gzip and deflate bodies as they stream, so the bound holds for what a compressed answer expands
 * to: a few megabytes on the wire that inflate to gigabytes never reach memory whole.
 */

/** Default FULFILLMENT_MAX_RESPONSE_BYTES: 32 MiB of decoded body per answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The body went past `maxBytes`; the rest was not read and the connection was released. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`answer body is larger than ${maxBytes} bytes`);
  }
}

/**
 * The body of `response` as text, or BodyTooLargeError as soon as more than `maxBytes` decoded
 * bytes arrived. Reading stops there and the stream is cancelled, so memory holds at most the
 * bound, whatever the upstream sends. An abort of the request's signal ends the read as `fetch`'s
 * own `text()` would (the error is the signal's reason).
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const declared = Number(response.headers.get('content-length'));
  // A declared length only speaks for an uncompressed body; a compressed one is checked as it inflates.
  if (!response.headers.get('content-encoding') && Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    pieces.push(decoder.decode(value, { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces.join('');
}
