import type {
  Invoice,
  OwnedInventory,
  ProductDetail,
  ShipmentReturn,
  ShipmentUpdate,
  TransferInDetail,
} from '../../api/records/index.ts';
import { ownedInventoryRecord } from '../records/inventory.ts';
import { TOO_MANY_REQUESTS } from '../respond.ts';
import { Rng } from '../rng.ts';
import { type Answer, LazyRows, notFound, type RouteContext, type SimRequest } from '../routes/context.ts';
import { ownedInventoryFilter } from '../routes/inventory.ts';
import { q } from '../routes/params.ts';
import type { SimTruth } from '../truth.ts';
import type { World } from '../world/state.ts';
import {
  withDeepMember,
  withMalformedLine,
  withMalformedPrice,
  withNulEvent,
  withOverflowingCount,
  withOversizedNumber,
  withSurrogateCarrier,
  withWrongTypedQuantity,
} from './patch.ts';
import { reportPoisons } from './report.ts';
import { isComplete, resolveTargets } from './resolveTargets.ts';
import {
  chooseAtStart,
  type ResolvedTargets,
  type StartTargets,
  type TransferTarget,
  vanishingRowAt,
  WRONG_TYPE_AFTER,
} from './targets.ts';
import { POISON_KINDS, type PoisonKind, type PoisonOptions, type PoisonReport } from './types.ts';
import { validatePoisonOptions } from './validateOptions.ts';

/**
 * The poison world (README "Scenarios"): the world of the same seed, with a handful of records and
 * answers broken the way a real misbehaving service breaks them. The world's own evolution is not
 * touched: poisons are applied to the records as they are served (and, for record values, in the
 * truth), and the 429s draw from their own random stream, so everything else answers as without
 * the scenario.
 */
export class PoisonScenario {
  readonly rateLimitRate: number;
  readonly retryAfterSeconds: number;
  private readonly kinds: ReadonlySet<PoisonKind>;
  private readonly atStart: StartTargets;
  private readonly throttle: Rng;
  private resolved: ResolvedTargets | undefined;
  private throttledCalls = 0;

  constructor(
    private readonly world: World,
    start: number,
    options: PoisonOptions = {},
  ) {
    validatePoisonOptions(options);
    this.rateLimitRate = options.rateLimitRate ?? 0.03;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
    this.kinds = new Set(options.kinds ?? POISON_KINDS);
    this.atStart = chooseAtStart(world, start);
    this.throttle = Rng.of(world.seed, 'poison', 'rate-limit');
  }

  /** Draws once per API call: whether this one is answered 429. */
  throttled(): boolean {
    const hit = this.throttle.next() < this.rateLimitRate;
    if (hit) this.throttledCalls += 1;
    return hit;
  }

  /** The answer as the poison world gives it (the world has caught up to ctx.now). */
  answer(ctx: RouteContext, req: SimRequest, answer: Answer): Answer {
    const t = this.active();
    const now = ctx.now;
    const p = req.params;
    switch (req.op) {
      case 'GET Transfers/INs/{supplierId}/{orderNumber}': {
        if (isTransfer(t.missingIn, p, now)) return notFound('Transfer not found');
        if (answer.isSuccess && isTransfer(t.malformedIn, p, now))
          return { ...answer, payload: withMalformedLine(answer.payload as TransferInDetail) };
        return answer;
      }
      case 'GET Products/{supplierId}/{sku}': {
        if (p.supplierId !== t.supplierId || p.sku === undefined) return answer;
        if (p.sku === t.missingProductSku) return notFound('Product not found');
        if (answer.isSuccess && p.sku === t.malformedProductSku)
          return { ...answer, payload: withMalformedPrice(answer.payload as ProductDetail) };
        return answer;
      }
      case 'GET Orders/Detail/{accountNumber}/{orderNumber}': {
        const o = t.order503;
        if (o && now >= o.from && p.accountNumber === o.accountNumber && p.orderNumber === o.orderNumber)
          return { status: 503, isSuccess: false, message: 'Service Unavailable', payload: null };
        return answer;
      }
      default:
        return answer.isSuccess ? { ...answer, payload: this.poisonRows(ctx, req, answer.payload) } : answer;
    }
  }

  /** The truth of the poison world: the record values it serves (not its broken answers). */
  applyToTruth(truth: SimTruth, now: number): SimTruth {
    const t = this.active();
    const z = this.world.zone;
    const inventory = truth.ownedInventory[t.supplierId] ?? [];
    const vanishing = t.vanishing && vanishingRowAt(t.vanishing, t.start, now);
    return {
      ...truth,
      shipmentUpdates: {
        ...truth.shipmentUpdates,
        [t.accountNumber]: (truth.shipmentUpdates[t.accountNumber] ?? []).map((r) =>
          this.shipment(r, t, z.iso.bind(z)),
        ),
      },
      invoices: {
        ...truth.invoices,
        [t.accountNumber]: (truth.invoices[t.accountNumber] ?? []).map((r) => this.invoice(r, t)),
      },
      returns: {
        ...truth.returns,
        [t.accountNumber]: (truth.returns[t.accountNumber] ?? []).map((r) => this.return(r, t)),
      },
      ownedInventory: {
        ...truth.ownedInventory,
        [t.supplierId]: [
          ...inventory.map((r) => this.inventoryRow(t.supplierId, r, t, now)),
          ...(vanishing ? [ownedInventoryRecord(this.world, vanishing)] : []),
        ] as OwnedInventory[],
      },
    };
  }

  /** What GET /_sim/poison answers at `now`. */
  report(now: number): PoisonReport {
    return reportPoisons(
      this.active(),
      this.world,
      now,
      {
        rate: this.rateLimitRate,
        retryAfterSeconds: this.retryAfterSeconds,
        message: TOO_MANY_REQUESTS,
        answered: this.throttledCalls,
      },
      this.kinds,
    );
  }

  /** The targets of the poisons switched on (`kinds`). */
  active(): ResolvedTargets {
    const t = this.targets();
    const on = <T>(kind: PoisonKind, value: T): T | undefined => (this.kinds.has(kind) ? value : undefined);
    return {
      ...t,
      nul: on('nul', t.nul),
      surrogate: on('lone-surrogate', t.surrogate),
      malformedIn: on('malformed-detail', t.malformedIn),
      malformedProductSku: on('malformed-detail', t.malformedProductSku),
      missingIn: on('missing-detail', t.missingIn),
      missingProductSku: on('missing-detail', t.missingProductSku),
      order503: on('detail-503', t.order503),
      wrongTypeKey: on('wrong-type', t.wrongTypeKey),
      vanishing: on('wrong-type', t.vanishing),
      overflowInvoice: on('int-overflow', t.overflowInvoice),
      oversizedInvoice: on('oversized-key', t.oversizedInvoice),
      deepReturn: on('deep-nesting', t.deepReturn),
    };
  }

  /** Every target, finding those that the world has created since the last call. */
  targets(): ResolvedTargets {
    if (this.resolved && isComplete(this.resolved)) return this.resolved;
    this.resolved = resolveTargets(this.world, this.atStart, this.resolved);
    return this.resolved;
  }

  private poisonRows(ctx: RouteContext, req: SimRequest, payload: unknown): unknown {
    const t = this.active();
    const z = ctx.world.zone;
    switch (req.op) {
      case 'GET Shipments/Updates': {
        const patch = (r: unknown) => this.shipment(r as ShipmentUpdate, t, z.iso.bind(z));
        if (payload instanceof LazyRows) return new LazyRows(payload.length, (i) => patch(payload.at(i)));
        return (payload as ShipmentUpdate[]).map(patch);
      }
      case 'GET Finances/invoices':
        return (payload as Invoice[]).map((r) => this.invoice(r, t));
      case 'GET Shipments/Returns':
        return (payload as ShipmentReturn[]).map((r) => this.return(r, t));
      case 'GET Inventories/Owned': {
        const supplierId = q(ctx, req, 'GET Inventories/Owned', 'supplierId') ?? '';
        const rows = (payload as OwnedInventory[]).map((r) => this.inventoryRow(supplierId, r, t, ctx.now));
        const vanishing = t.vanishing && vanishingRowAt(t.vanishing, t.start, ctx.now);
        if (vanishing && ownedInventoryFilter(ctx, req)(vanishing))
          rows.push(ownedInventoryRecord(ctx.world, vanishing));
        return rows;
      }
      default:
        return payload;
    }
  }

  private shipment(r: ShipmentUpdate, t: ResolvedTargets, iso: (ms: number) => string): ShipmentUpdate {
    const id = r?.header?.containerId;
    if (t.nul && id === t.nul.containerId) return withNulEvent(r, iso(t.nul.eventTime));
    if (t.surrogate && id === t.surrogate.containerId) return withSurrogateCarrier(r);
    return r;
  }

  private invoice(r: Invoice, t: ResolvedTargets): Invoice {
    if (r.invoiceNumber === t.overflowInvoice?.invoiceNumber) return withOverflowingCount(r);
    if (r.invoiceNumber === t.oversizedInvoice?.invoiceNumber) return withOversizedNumber(r);
    return r;
  }

  private return(r: ShipmentReturn, t: ResolvedTargets): ShipmentReturn {
    return r.shipReturnId === t.deepReturn?.shipReturnId ? withDeepMember(r) : r;
  }

  private inventoryRow(
    supplierId: string,
    r: OwnedInventory,
    t: ResolvedTargets,
    now: number,
  ): OwnedInventory | Record<string, unknown> {
    if (now < t.start + WRONG_TYPE_AFTER) return r;
    const key = `${supplierId}|${r.warehouseCode}|${r.subInventoryCode}|${r.sku}`;
    return key === t.wrongTypeKey ? withWrongTypedQuantity(r) : r;
  }
}

function isTransfer(target: TransferTarget | undefined, p: Record<string, string>, now: number): boolean {
  return (
    target !== undefined &&
    p.supplierId === target.supplierId &&
    p.orderNumber === target.orderNumber &&
    now >= target.from &&
    (target.until === undefined || now < target.until)
  );
}
