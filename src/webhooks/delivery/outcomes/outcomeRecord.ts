import type { Endpoint } from '../../endpoints/endpoints.ts';
import type { HealthVerdict } from '../../endpoints/health.ts';
import type { AttemptStatus } from '../../views/deliveries.ts';
import type { DeliveryKey } from '../deliveryStates.ts';
import type { AttemptResult } from '../post/attempt.ts';

/** One attempt's outcome to store: the attempt row, the delivery's next state, the endpoint's health. */
export interface OutcomeRecord {
  job: DeliveryKey;
  endpoint: Pick<Endpoint, 'id' | 'failingSince'>;
  attempt: number;
  status: AttemptStatus;
  result: AttemptResult;
  /** When the next attempt is due (status 'failed'); null otherwise. */
  nextAttemptAt: Date | null;
  /** The attempt judged from the endpoint as the claim saw it; stored health follows the latest outcome. */
  verdict: HealthVerdict;
  attemptedAt: Date;
}
