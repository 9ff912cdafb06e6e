import { POISON_KINDS, type PoisonOptions } from './types.ts';

/** Throws a plain Error naming what is wrong with poison options. */
export function validatePoisonOptions(o: PoisonOptions): void {
  for (const k of o.kinds ?? [])
    if (!POISON_KINDS.includes(k))
      throw new Error(`unknown poison kind "${k}"; known: ${POISON_KINDS.join(', ')}`);
  if (o.rateLimitRate !== undefined && !(o.rateLimitRate >= 0 && o.rateLimitRate <= 1))
    throw new Error('poison.rateLimitRate must be between 0 and 1');
  if (
    o.retryAfterSeconds !== undefined &&
    !(Number.isInteger(o.retryAfterSeconds) && o.retryAfterSeconds >= 0)
  )
    throw new Error('poison.retryAfterSeconds must be an integer >= 0');
}
