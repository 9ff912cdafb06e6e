import type { OwnedInventory, ProductDetail, TransferInDetail } from '../../api/records/index.ts';
import { ownedInventoryRecord } from '../records/inventory.ts';
import { TOO_MANY_REQUESTS } from '../respond.ts';
import { Rng } from '../rng.ts';
import { type Answer, notFound, type RouteContext, type SimRequest } from '../routes/context.ts';
import type { SimTruth } from '../truth.ts';
import type { World } from '../world/state.ts';
import { withMalformedLine, withMalformedPrice } from './patch.ts';
import {
  poisonInventoryRow,
  poisonInvoice,
  poisonListRows,
  poisonReturn,
  poisonShipment,
} from './poisonRecords.ts';
import { reportPoisons } from './report.ts';
import { isComplete, resolveTargets } from './resolveTargets.ts';
import {
  chooseAtStart,
  type ResolvedTargets,
  type StartTargets,
  type TransferTarget,
  vanishingRowAt,
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
        return answer.isSuccess
          ? { ...answer, payload: poisonListRows(ctx, req, answer.payload, t) }
          : answer;
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
          poisonShipment(r, t, z.iso.bind(z)),
        ),
      },
      invoices: {
        ...truth.invoices,
        [t.accountNumber]: (truth.invoices[t.accountNumber] ?? []).map((r) => poisonInvoice(r, t)),
      },
      returns: {
        ...truth.returns,
        [t.accountNumber]: (truth.returns[t.accountNumber] ?? []).map((r) => poisonReturn(r, t)),
      },
      ownedInventory: {
        ...truth.ownedInventory,
        [t.supplierId]: [
          ...inventory.map((r) => poisonInventoryRow(t.supplierId, r, t, now)),
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
