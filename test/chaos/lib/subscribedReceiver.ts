import type pg from 'pg';
import { addEndpoint } from '../../../src/webhooks/endpoints/endpoints.ts';
import type { ChaosContext } from '../scenario.ts';
import { type FlakyReceiver, type FlakyReceiverOptions, startFlakyReceiver } from './flakyReceiver.ts';

/**
 * A receiver subscribed to every event through the code path of `webhooks add` (a local address,
 * so private targets are allowed), verifying signatures with the endpoint's secret; closed when the
 * scenario ends.
 */
export async function subscribeFlakyReceiver(
  ctx: ChaosContext,
  pool: pg.Pool,
  options: FlakyReceiverOptions,
): Promise<{ receiver: FlakyReceiver; endpoint: Awaited<ReturnType<typeof addEndpoint>> }> {
  const receiver = await startFlakyReceiver(options);
  ctx.defer(() => receiver.close());
  const endpoint = await addEndpoint(pool, { url: receiver.url }, { policy: { allowPrivateTargets: true } });
  receiver.setSecret(endpoint.secret);
  return { receiver, endpoint };
}
