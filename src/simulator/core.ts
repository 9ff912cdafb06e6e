import { type QueryParamTable, resolveQueryParams } from '../api/queryParams.ts';
import { TokenStore } from './auth.ts';
import { manualClock, realClock, type SimClock } from './clock.ts';
import { DEFAULT_RATES, type Rates } from './evolve/rates.ts';
import { evolveTo } from './evolve/tick.ts';
import { addDraftTransfersIn } from './evolve/transfers.ts';
import { FaultInjector, type FaultOptions, validateFaultOptions } from './faults.ts';
import { PoisonScenario } from './poison/scenario.ts';
import type { PoisonOptions, PoisonReport } from './poison/types.ts';
import { validatePoisonOptions } from './poison/validateOptions.ts';
import { buildTruth, type SimTruth } from './truth.ts';
import { VolumeShipments } from './volume.ts';
import { buildCatalog } from './world/catalog.ts';
import { World } from './world/state.ts';
import { WAREHOUSE_LIST } from './world/warehouses.ts';
import { Zone } from './zone.ts';

/** How big the world is and how busy it gets. */
export interface VolumeOptions {
  /** Simulated days of history generated before `start` (default 14). */
  historyDays?: number;
  suppliers?: number;
  winesPerSupplier?: number;
  /** Extra static shipment updates spread over the history (for benchmarks), default 0. */
  shipments?: number;
  /**
   * Opening stock of every product in this warehouse only (default: one or two random ones each),
   * so one warehouse and its FG sub-inventory can hold more rows than a small `rowCap`.
   */
  stockWarehouse?: string;
  /**
   * DRAFT INs per supplier created over the history (in `stockWarehouse` when set) and never
   * submitted (default 0): an open-status list as long as wanted. They leave it only when cancelled.
   */
  draftTransfersIn?: number;
  rates?: Partial<Rates>;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  tokens?: string[];
  /** Client credentials accepted by POST /oauth/token (default sandbox-client / sandbox-secret). */
  clientCredentials?: { clientId: string; clientSecret: string };
  clock?: 'manual' | 'real';
  /** Simulated now at start; default: the current time truncated to the hour. */
  start?: Date;
  timezone?: string;
  volume?: VolumeOptions;
  faults?: FaultOptions;
  /** Answer-size cap per window, see README (default: none). */
  rowCap?: number;
  /** 'error' (default): HTTP 413 + isSuccess false; 'truncate': the first rowCap rows, silently. */
  rowCapMode?: 'error' | 'truncate';
  /** Overrides of query-string names, as FULFILLMENT_QUERY_PARAMS. */
  queryParams?: Record<string, Record<string, string>>;
  /** A world with deliberately broken records and answers (README "Scenarios"); default: none. */
  scenario?: 'poison';
  /** Settings of the poison scenario. */
  poison?: PoisonOptions;
}

function validStockWarehouse(code: string | undefined): string | undefined {
  if (code !== undefined && !WAREHOUSE_LIST.includes(code))
    throw new Error(`volume.stockWarehouse must be one of ${WAREHOUSE_LIST.join(', ')}, got "${code}"`);
  return code;
}

/** The simulator without its HTTP server: world, clock, faults, tokens. */
export class SimulatorCore {
  readonly world: World;
  readonly clock: SimClock;
  readonly rates: Rates;
  readonly faults: FaultInjector;
  readonly tokens: TokenStore;
  readonly table: QueryParamTable;
  readonly volume: VolumeShipments | undefined;
  readonly seed: number;
  /** The poison scenario, when the world runs it. */
  readonly poison: PoisonScenario | undefined;
  rowCap: number | undefined;
  rowCapMode: 'error' | 'truncate';

  constructor(options: SimulatorOptions = {}) {
    this.seed = options.seed ?? 42;
    const v = options.volume ?? {};
    this.rates = { ...DEFAULT_RATES, ...v.rates };
    if (options.start && options.start.getTime() % 60_000 !== 0)
      throw new Error('start must be a whole minute');
    const startAt = options.start?.getTime() ?? Math.floor(Date.now() / 3_600_000) * 3_600_000;
    this.clock = options.clock === 'real' ? realClock(startAt) : manualClock(startAt);
    this.world = new World(this.seed, new Zone(options.timezone ?? 'America/Los_Angeles'));
    const genesis = startAt - (v.historyDays ?? 14) * 86_400_000;
    this.world.processedMinute = Math.floor(genesis / 60_000) - 1;
    buildCatalog(
      this.world,
      {
        suppliers: v.suppliers ?? 2,
        winesPerSupplier: v.winesPerSupplier ?? 18,
        stockWarehouse: validStockWarehouse(v.stockWarehouse),
      },
      genesis,
    );
    addDraftTransfersIn(this.world, v.draftTransfersIn ?? 0, genesis, startAt, v.stockWarehouse);
    if (options.faults) validateFaultOptions(options.faults);
    if (options.scenario !== undefined && options.scenario !== 'poison')
      throw new Error(`unknown scenario "${String(options.scenario)}"; known: poison`);
    validatePoisonOptions(options.poison ?? {});
    this.faults = new FaultInjector(options.faults ?? {}, this.seed);
    this.tokens = new TokenStore(
      options.tokens ?? ['sandbox-token'],
      this.seed,
      options.clientCredentials ?? { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
    );
    this.table = resolveQueryParams(options.queryParams ?? {});
    this.rowCap = options.rowCap;
    this.rowCapMode = options.rowCapMode ?? 'error';
    if (v.shipments && v.shipments > 0) {
      const skus = Object.fromEntries(
        this.world.accounts.map((a) => [a.number, this.world.sellable(a.supplierId).map((p) => p.sku)]),
      );
      this.volume = new VolumeShipments(
        this.seed,
        v.shipments,
        this.world.accounts.map((a) => a.number),
        skus,
        genesis,
        startAt,
      );
    }
    this.catchUp();
    // Chosen from the world as it is at the start, after the history has been simulated.
    this.poison =
      options.scenario === 'poison' ? new PoisonScenario(this.world, startAt, options.poison) : undefined;
  }

  /** Runs the world forward to the clock; every request and truth() calls it first. */
  catchUp(): number {
    const now = this.clock.now();
    evolveTo(this.world, now, this.rates);
    return now;
  }

  /** Moves a manual clock and the world with it. */
  advance(minutes: number): void {
    this.clock.advance(minutes);
    this.catchUp();
  }

  /** The complete current state (see truth.ts). */
  truth(): SimTruth {
    const now = this.catchUp();
    const truth = buildTruth(this.world, now, this.volume?.count ?? 0);
    return this.poison ? this.poison.applyToTruth(truth, now) : truth;
  }

  /** What the poison scenario has poisoned so far (undefined without the scenario). */
  poisonReport(): PoisonReport | undefined {
    const now = this.catchUp();
    return this.poison?.report(now);
  }

  /** What GET /_sim/world answers. */
  worldSummary(): Record<string, unknown> {
    const now = this.catchUp();
    const w = this.world;
    return {
      suppliers: w.suppliers.map((s) => s.id),
      accounts: w.accounts.map((a) => a.number),
      now: new Date(now).toISOString(),
      timezone: w.zone.timeZone,
      clock: this.clock.mode,
      seed: this.seed,
      ...(this.poison ? { scenario: 'poison' } : {}),
      counts: {
        products: w.products.size,
        inventoryRows: w.inventory.size,
        orders: w.orders.size,
        shipments: w.shipments.size,
        volumeShipments: this.volume?.count ?? 0,
        returns: w.returns.size,
        transfersIn: w.transfersIn.size,
        transfersOut: w.transfersOut.size,
        invoices: w.invoices.size,
      },
    };
  }
}
