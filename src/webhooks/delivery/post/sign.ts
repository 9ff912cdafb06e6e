import { Webhook } from 'standardwebhooks';

/** The three Standard Webhooks headers of one delivery. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs a body with the reference `standardwebhooks` library: `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`, one signature per secret, space-separated (the standard's form for a
 * secret rotation: receivers accept a delivery when any signature verifies). The id is the event
 * id, identical on every retry and replay.
 */
export function signDelivery(
  secrets: string | readonly string[],
  msgId: string,
  timestamp: Date,
  body: string,
): SignatureHeaders {
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  if (all.length === 0) throw new Error('signDelivery needs at least one secret');
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': all.map((secret) => new Webhook(secret).sign(msgId, timestamp, body)).join(' '),
  };
}
