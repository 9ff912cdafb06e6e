import { Webhook } from 'standardwebhooks';

/** The three Standard Webhooks headers of one delivery. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs a body with the reference `standardwebhooks` library: `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`. The id is the event id, identical on every retry and replay.
 */
export function signDelivery(secret: string, msgId: string, timestamp: Date, body: string): SignatureHeaders {
  const signature = new Webhook(secret).sign(msgId, timestamp, body);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
