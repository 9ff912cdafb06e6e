import type { z } from 'zod';
import { bigInt, bool, dateTime, record, text } from './primitives.ts';

/** Packing slip record (spec 2.11). */
export const packingSlipSchema = record({
  packingSlipId: bigInt(),
  packingSlipName: text(),
  orderingCode: text(),
  orderingName: text(),
  layoutCode: text(),
  layoutName: text(),
  useBrandLogo: bool(),
  imageData: text(),
  marketingMessage: text(),
  creationDate: dateTime(),
  createdBy: text(),
  lastUpdateDate: dateTime(),
  lastUpdatedBy: text(),
});
export type PackingSlip = z.infer<typeof packingSlipSchema>;
