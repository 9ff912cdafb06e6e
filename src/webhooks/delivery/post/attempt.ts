import { parseRetryAfter } from '../../../http/retryAfter.ts';
import { deliveryHeaders } from '../../endpoints/endpointSettings.ts';
import { type Resolve, safeLookup, systemResolve } from '../../endpoints/safeLookup.ts';
import { type TargetPolicy, urlRefusal } from '../../endpoints/targetPolicy.ts';
import { keepAliveAgents, PostTimeoutError, postOnce } from './post.ts';
import { signDelivery } from './sign.ts';

export { MAX_RESPONSE_BYTES } from './post.ts';

/** Receivers get this long to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** What one HTTP attempt gave; never throws for receiver failures. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** What the receiver answered (truncated, storable: see storableText); null when nothing was received. */
  responseBody: string | null;
  retryAfterMs: number | undefined;
}

export interface AttemptInput {
  url: string;
  /** Signing secrets: the endpoint's, plus the previous one while a rotation overlaps. */
  secrets: readonly string[];
  msgId: string;
  body: string;
  /** The endpoint's custom headers; the content type and signature headers are set over them. */
  customHeaders?: Readonly<Record<string, string>> | undefined;
  policy: TargetPolicy;
  /** How host names are resolved (the system resolver unless a test injects one). */
  resolve?: Resolve | undefined;
  /** The signature timestamp's clock: receivers compare it with theirs, so real time. */
  now?: () => Date;
  timeoutMs?: number | undefined;
}

/**
 * One signed POST of an event body. The target is checked before connecting (scheme, literal
 * address) and after resolving its name (every address), and the connection goes to the checked
 * address; a refused target is a failed attempt that sent and stored nothing. Success is a 2xx
 * only; redirects are not followed; the body read is capped; no secret appears in the result.
 */
export async function attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
  const now = input.now ?? (() => new Date());
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): AttemptResult => ({
    ok: false,
    statusCode: null,
    durationMs: elapsed(),
    error,
    responseBody: null,
    retryAfterMs: undefined,
  });
  const url = new URL(input.url);
  const refusal = urlRefusal(url, input.policy);
  if (refusal) return failed(refusal);
  const headers = deliveryHeaders(input.customHeaders ?? {}, {
    'content-type': 'application/json',
    'user-agent': 'fulfillment-sync-webhooks/1',
    ...signDelivery(input.secrets, input.msgId, now(), input.body),
  });
  try {
    const response = await postOnce(
      {
        url,
        headers,
        body: input.body,
        timeoutMs: input.timeoutMs ?? DELIVERY_TIMEOUT_MS,
        lookup: safeLookup(input.policy, input.resolve),
      },
      keepAliveAgents(input.policy, input.resolve ?? systemResolve),
    );
    const ok = response.status >= 200 && response.status < 300;
    const retryAfter = response.headers['retry-after'];
    return {
      ok,
      statusCode: response.status,
      durationMs: elapsed(),
      error: ok ? null : `receiver answered HTTP ${response.status}`,
      responseBody: storableText(response.body),
      retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now().getTime()),
    };
  } catch (cause) {
    if (cause instanceof PostTimeoutError) return failed('timed out');
    if (cause instanceof Error && cause.name === 'RefusedTargetError') return failed(cause.message);
    return failed(`request failed: ${errorText(cause)}`);
  }
}

/**
 * A receiver's answer as Postgres can store it: text cannot hold a NUL character, and one in a
 * body would fail the whole group commit of outcomes (every endpoint's in it, again at each
 * re-send), so each becomes U+FFFD, as undecodable bytes already do. Pure.
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

function errorText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
}
