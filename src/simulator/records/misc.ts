import type {
  HoldAtLocation,
  Invoice as InvoiceRecord,
  PackingSlip as PackingSlipRecord,
} from '../../api/records/index.ts';
import { Rng } from '../rng.ts';
import type { Invoice, PackingSlip } from '../types.ts';
import { STREETS } from '../world/names.ts';
import type { World } from '../world/state.ts';

/** An invoice record; balanceDue is what is left after payments. */
export function invoiceRecord(world: World, i: Invoice): InvoiceRecord {
  return {
    invoiceNumber: i.invoiceNumber,
    customerName: world.accounts.find((a) => a.number === i.accountNumber)?.name ?? null,
    accountNumber: i.accountNumber,
    invoiceType: i.invoiceType,
    orderCount: i.orderCount,
    invoiceDate: world.zone.iso(i.invoiceDate),
    classInvoiceAmount: i.classAmount,
    totalInvoiceAmount: i.totalAmount,
    paymentsReceived: i.paymentsReceived,
    balanceDue: Math.round((i.totalAmount - i.paymentsReceived) * 100) / 100,
  };
}

// A 1x1 transparent PNG: real slips carry an image, tests only need valid base64.
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export function packingSlipRecord(world: World, s: PackingSlip): PackingSlipRecord {
  return {
    packingSlipId: s.id,
    packingSlipName: s.name,
    orderingCode: s.orderingCode,
    orderingName: `Ordering ${s.orderingCode}`,
    layoutCode: s.layoutCode,
    layoutName: `Layout ${s.layoutCode}`,
    useBrandLogo: s.useBrandLogo,
    imageData: PIXEL_PNG,
    marketingMessage: s.marketingMessage,
    creationDate: world.zone.iso(s.createdAt),
    createdBy: 'admin',
    lastUpdateDate: world.zone.iso(s.createdAt),
    lastUpdatedBy: 'admin',
  };
}

/** Stores near an address: a pure function of the seed, the carrier and the address. */
export function holdAtLocations(
  seed: number,
  carrier: string,
  city: string,
  stateCode: string,
  postalCode: string,
): HoldAtLocation[] {
  const rng = Rng.of(seed, 'holdAt', carrier, postalCode, city);
  return Array.from({ length: rng.int(3, 6) }, (_, i) => ({
    line1: `${rng.int(10, 9999)} ${rng.pick(STREETS)}`,
    line2: i % 2 === 0 ? null : `Suite ${rng.int(1, 300)}`,
    line3: null,
    city: city || 'Napa',
    stateCode: stateCode || 'CA',
    postalCode: postalCode || '94558',
    carrierLocationId: `${carrier === 'CarrierB' ? 'B' : 'A'}${rng.int(100_000, 999_999)}`,
    carrier,
    distanceMiles: Math.round((0.3 + i * 1.1 + rng.next()) * 10) / 10,
    countryCode: 'US',
  }));
}
