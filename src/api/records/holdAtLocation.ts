import { z } from 'zod';
import { CARRIERS } from './enums.ts';
import { num, openEnum, record, text } from './primitives.ts';

/** Carrier hold-at location record (spec 2.12). */
export const holdAtLocationSchema = record({
  line1: text(),
  line2: text(),
  line3: text(),
  city: text(),
  stateCode: text(),
  postalCode: text(),
  carrierLocationId: text(),
  carrier: openEnum(CARRIERS),
  distanceMiles: num(),
  countryCode: text(),
});
export type HoldAtLocation = z.infer<typeof holdAtLocationSchema>;

/** Hold-at query bounds of spec 4.6 and 8. */
export const holdAtLocationQuerySchema = z.object({
  carrier: z.string().optional(),
  address1: z.string().optional(),
  address2: z.string().optional(),
  address3: z.string().optional(),
  city: z.string().max(100, 'city is at most 100 characters').optional(),
  stateCode: z.string().length(2, 'stateCode must be exactly 2 characters').optional(),
  postalCode: z.string().min(5).max(11, 'postalCode must be 5-11 characters').optional(),
  countryCode: z
    .string()
    .length(2, 'countryCode must be exactly 2 characters')
    .refine((c) => c === 'US', 'countryCode: only US is supported')
    .optional(),
});
export type HoldAtLocationQuery = z.infer<typeof holdAtLocationQuerySchema>;
