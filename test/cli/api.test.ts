import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFulfillmentClient, type FulfillmentClient, staticTokenProvider } from '../../src/api/index.ts';
import { API_COMMANDS } from '../../src/cli/api/apiCommands.ts';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { linesOf, runSourceCli } from '../helpers/cli.ts';
import { type CountingProxy, startCountingProxy } from '../helpers/countingProxy.ts';

/** `fulfillment-sync api <operation>` against the simulator, behind a proxy that counts every request. */

const TOKEN = 'api-cli-token';
let sim: RunningSimulator;
let proxy: CountingProxy;
let client: FulfillmentClient;
const files = mkdtempSync(path.join(tmpdir(), 'fs-api-cli-'));

beforeAll(async () => {
  sim = await startSimulator({
    seed: 42,
    clock: 'manual',
    start: new Date('2026-11-03T20:00:00Z'),
    tokens: [TOKEN],
    volume: { historyDays: 4 },
  });
  proxy = await startCountingProxy(sim.url);
  client = createFulfillmentClient({
    baseUrl: sim.url,
    tokenProvider: staticTokenProvider(TOKEN),
    timeoutMs: 10_000,
    rateLimitRps: 0,
  });
});
afterAll(async () => {
  await proxy?.close();
  await sim?.close();
  rmSync(files, { recursive: true, force: true });
});

/** Runs `fulfillment-sync api ...` in-process against the proxy; stdin holds `input` when given. */
async function api(args: string[], input?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['node', 'fulfillment-sync', 'api', ...args],
    createCliContext({
      env: { FULFILLMENT_API_URL: proxy.url, FULFILLMENT_API_TOKEN: TOKEN, LOG_LEVEL: 'silent' },
      print: (l) => out.push(l),
      printError: (l) => err.push(l),
      stdin: input === undefined ? Object.assign(Readable.from([]), { isTTY: true }) : Readable.from([input]),
    }),
  );
  process.exitCode = undefined;
  const stdout = out.join('\n');
  return { code, stdout, err, json: () => JSON.parse(stdout) as unknown };
}

function file(name: string, content: unknown): string {
  const target = path.join(files, name);
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content));
  return target;
}

const wine = {
  supplierId: 'SUP200',
  sku: 'API-CLI-1',
  brandName: 'Api',
  appellation: 'Sonoma Coast',
  alcoholType: 'STILL',
  bottleSize: '750',
};
const transferIn = {
  supplierId: 'SUP200',
  referenceNumber: 'API-CLI',
  deliveryMethodCode: 'PROVIDER_PICKUP',
  pickupSiteId: 501,
  warehouseCode: 'DAL',
  lineItems: [{ supplierSku: 'API-CLI-1', subInventoryCode: 'FG', qty: 12 }],
};

describe('fulfillment-sync api', () => {
  it('runs every one of the 17 operations against the simulator and prints the payload as JSON', async () => {
    const truth = sim.truth();
    const sku = truth.ownedProducts.SUP100![0]!.sku as string;
    const inNumber = truth.transfersIn.SUP100![0]!.header.orderNumber as string;
    const warehouse = truth.ownedInventory.SUP100![0]!.warehouseCode as string;
    const order = truth.orderDetails.ACC100![0]!.header.orderNumber as string;
    const cancellable = truth.orderDetails.ACC200!.find((o) => o.header.isCancellable)!.header
      .orderNumber as string;
    const ran = new Set<string>();
    const ok = async (args: string[], input?: string) => {
      const result = await api(args, input);
      expect(result.err, args.join(' ')).toEqual([]);
      expect(result.code, args.join(' ')).toBe(0);
      ran.add(args[0]!);
      return result.json();
    };

    // Writes: the body from stdin, or from --file.
    expect(await ok(['create-wine-product'], JSON.stringify(wine))).toBeTruthy();
    const created = await ok(['create-transfer-in', '--file', file('in.json', transferIn)]);
    const createdNumber = (Array.isArray(created) ? created[0] : created) as string;
    expect(createdNumber).toEqual(expect.any(String));
    const drafts = (await ok(['transfers-in', '--supplier-id', 'SUP200', '--status-code', 'DRAFT'])) as {
      orderNumber: string;
    }[];
    expect(drafts.map((d) => d.orderNumber)).toContain(createdNumber);
    await ok(['cancel-transfer-in', 'SUP200', createdNumber]);
    const cancelledIn = (await ok(['transfer-in-detail', 'SUP200', createdNumber])) as {
      header: { statusCode: string };
    };
    expect(cancelledIn.header.statusCode).toBe('CANCELLED');
    await ok(['cancel-order', 'ACC200', cancellable, '--no-rename-order']);
    expect((await client.getOrderDetail('ACC200', cancellable)).record?.header.isCancellable).toBe(false);

    // Reads print exactly what the service answered (the same records the client gets).
    const products = await ok(['owned-products', '--supplier-id', 'SUP200', '--sku', wine.sku]);
    expect(products).toEqual(
      (await client.listOwnedProducts({ supplierId: 'SUP200', sku: wine.sku })).records,
    );
    expect(products).toHaveLength(1);
    const detail = (await ok(['product-detail', 'SUP100', sku])) as { header: { sku: string } };
    expect(detail.header.sku).toBe(sku);
    expect(await ok(['transfer-in-detail', 'SUP100', inNumber])).toEqual(
      (await client.getTransferInDetail('SUP100', inNumber)).record,
    );
    expect(await ok(['transfers-out', '--supplier-id', 'SUP100', '--begin-date', '2026-10-30'])).toEqual(
      (await client.searchTransfersOut({ supplierId: 'SUP100', beginDate: '2026-10-30' })).records,
    );
    const stock = (await ok([
      'owned-inventory',
      '--supplier-id',
      'SUP100',
      '--warehouse-code',
      warehouse,
    ])) as {
      warehouseCode: string;
    }[];
    expect(stock.length).toBeGreaterThan(0);
    expect(new Set(stock.map((r) => r.warehouseCode))).toEqual(new Set([warehouse]));
    expect(
      await ok([
        'inventory-activity',
        '--supplier-id',
        'SUP100',
        '--begin-date',
        '2026-11-01',
        '--end-date',
        '2026-11-03',
      ]),
    ).toEqual(
      (
        await client.listInventoryActivity({
          supplierId: 'SUP100',
          beginDate: '2026-11-01',
          endDate: '2026-11-03',
        })
      ).records,
    );
    const orderDetail = (await ok(['order-detail', 'ACC100', order])) as { header: { orderNumber: string } };
    expect(orderDetail.header.orderNumber).toBe(order);
    const slips = (await ok(['packing-slips', '1001', '1002'])) as unknown[];
    expect(slips).toHaveLength(2);
    const updates = (await ok([
      'shipment-updates',
      '--account-number',
      'ACC100',
      '--begin-date',
      '2026-11-01T00:00',
      '--end-date',
      '2026-11-03T12:00',
    ])) as unknown[];
    expect(updates.length).toBeGreaterThan(0);
    expect(
      Array.isArray(await ok(['returns', '--account-number', 'ACC100', '--begin-date', '2026-10-01'])),
    ).toBe(true);
    const locations = (await ok(['hold-at-locations', '--postal-code', '94558'])) as { postalCode: string }[];
    expect(locations.length).toBeGreaterThan(0);
    expect(await ok(['invoices', '--account-number', 'ACC100'])).toEqual(
      (await client.listInvoices({ accountNumber: 'ACC100' })).records,
    );

    expect([...ran].sort()).toEqual(API_COMMANDS.map((c) => c.name).sort());
    expect(API_COMMANDS).toHaveLength(17);
  });

  it.each([
    ['a body that is not JSON', ['create-wine-product'], '{"supplierId": "SUP100",'],
    ['a body breaking the spec rules', ['create-wine-product'], JSON.stringify({ ...wine, brandName: '' })],
    [
      'an IN picked up without a pickup site',
      ['create-transfer-in'],
      JSON.stringify({ ...transferIn, pickupSiteId: undefined }),
    ],
    ['no body at all', ['create-wine-product'], undefined],
    ['a missing body file', ['create-transfer-in', '--file', '/nonexistent/in.json'], undefined],
    [
      'warehouse and SKU together',
      ['owned-inventory', '--supplier-id', 'SUP100', '--warehouse-code', 'DAL', '--sku', 'X'],
      undefined,
    ],
    ['a postal code too short', ['hold-at-locations', '--postal-code', '945'], undefined],
    [
      'a date that does not exist',
      ['transfers-in', '--supplier-id', 'SUP100', '--begin-date', '2026-02-30'],
      undefined,
    ],
    [
      'a reversed range',
      ['returns', '--account-number', 'ACC100', '--begin-date', '2026-11-03', '--end-date', '2026-11-01'],
      undefined,
    ],
    [
      'a missing required flag',
      ['shipment-updates', '--account-number', 'ACC100', '--begin-date', '2026-11-01'],
      undefined,
    ],
    ['a missing argument', ['order-detail', 'ACC100'], undefined],
    ['a packing slip id that is not an integer', ['packing-slips', '1001', 'abc'], undefined],
    ['an unknown flag', ['invoices', '--colour', 'red'], undefined],
  ])(
    'refuses %s with one line and exit 2, before any request reaches the service',
    async (_, args, input) => {
      const before = proxy.requests.length;
      const result = await api(args, input);
      expect(result.code).toBe(2);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(/error/);
      expect(result.stdout).toBe('');
      expect(proxy.requests.slice(before)).toEqual([]);
    },
  );

  it('says so in one line, exit 1, when the service answers with a failure', async () => {
    const result = await api(['order-detail', 'ACC100', 'NO-SUCH-ORDER']);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([expect.stringMatching(/404.*NO-SUCH-ORDER/)]);
  });

  it('as a process: reads the body piped to stdin and prints the answer', async () => {
    const result = await runSourceCli(['api', 'create-wine-product'], {
      env: {
        PATH: process.env.PATH ?? '',
        FULFILLMENT_API_URL: proxy.url,
        FULFILLMENT_API_TOKEN: TOKEN,
        LOG_LEVEL: 'silent',
      },
      input: JSON.stringify({ ...wine, sku: 'API-CLI-2' }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toBeTruthy();
    expect((await client.listOwnedProducts({ supplierId: 'SUP200', sku: 'API-CLI-2' })).records).toHaveLength(
      1,
    );
    const bad = await runSourceCli(['api', 'create-wine-product'], {
      env: { PATH: process.env.PATH ?? '', FULFILLMENT_API_URL: proxy.url, FULFILLMENT_API_TOKEN: TOKEN },
      input: '{"sku": 1}',
    });
    expect(bad.code).toBe(2);
    expect(linesOf(bad.stderr)).toHaveLength(1);
  });
});
