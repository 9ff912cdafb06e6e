import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnswerTooLargeError, ENVIRONMENT_SETTING_NAMES, type UpstreamError } from '../../src/api/index.ts';
import { ok, type RecordingServer, startRecordingServer } from './helpers/recordingServer.ts';
import { testClient } from './helpers/testClient.ts';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const rows = (n: number) => ok(Array.from({ length: n }, (_, i) => ({ sku: `SKU${i}`, qtyOnHand: i })));

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnswerTooLargeError);
  return error as UpstreamError;
}

describe('the row cap per list call (FULFILLMENT_MAX_ROWS_PER_WINDOW)', () => {
  it('an answer below the cap is the answer', async () => {
    const client = testClient(server.url, { maxRowsPerCall: 3 });
    server.reply(rows(2));
    expect((await client.listOwnedInventory({ supplierId: 'S1' })).records).toHaveLength(2);
  });

  it('exactly the cap is too large (the upstream may have cut it there), naming the call and the setting', async () => {
    const client = testClient(server.url, { maxRowsPerCall: 3 });
    server.reply(rows(3));
    const error = await failure(client.listOwnedInventory({ supplierId: 'S1' }));
    expect(error.kind).toBe('too-large');
    expect(error.message).toContain('GET Inventories/Owned');
    expect(error.message).toContain('3 rows');
    // An SDK user set the option; the CLI and worker set the environment variable.
    expect(error.message).toContain('raise maxRowsPerCall');
    expect(error.message).not.toContain('FULFILLMENT_');
    expect(server.requests).toHaveLength(1);
    server.reply(rows(3));
    const viaCli = testClient(server.url, { maxRowsPerCall: 3, settingNames: ENVIRONMENT_SETTING_NAMES });
    const cliError = await failure(viaCli.listOwnedInventory({ supplierId: 'S1' }));
    expect(cliError.message).toContain('at or over FULFILLMENT_MAX_ROWS_PER_WINDOW=3');
    expect(cliError.message).not.toContain('maxRowsPerWindow');
  });

  it('rejected rows count too', async () => {
    const client = testClient(server.url, { maxRowsPerCall: 3 });
    server.reply(
      ok([
        { sku: 'A', qtyOnHand: 1 },
        { sku: 'B', qtyOnHand: 'x' },
        { sku: 'C', qtyOnHand: 'y' },
      ]),
    );
    await failure(client.listOwnedInventory({ supplierId: 'S1' }));
  });

  it('no cap when it is 0 or absent', async () => {
    server.reply(rows(50), rows(50));
    expect(
      (await testClient(server.url, { maxRowsPerCall: 0 }).listOwnedInventory({ supplierId: 'S1' })).records,
    ).toHaveLength(50);
    expect((await testClient(server.url).listOwnedInventory({ supplierId: 'S1' })).records).toHaveLength(50);
  });
});
