import { z } from 'zod';

/** Every answer of the service: `{isSuccess, message, payload}` (spec 2.1). */
export const envelopeSchema = z.object({
  isSuccess: z.boolean(),
  message: z.string().nullish(),
  payload: z.unknown().optional(),
});
export type Envelope = z.infer<typeof envelopeSchema>;
