/**
 * The simulator in its own process for the end-to-end figure, as a real upstream would be: the
 * parent gets `{url, now, accounts}` over IPC and sends 'close' when done.
 */
import { startSimulator } from '../src/simulator/index.ts';

const records = Number(process.argv[2]);
const historyDays = Number(process.argv[3]);
const rowCap = Number(process.argv[4]);
// Like a real upstream, it refuses (413) an answer over its cap rather than send it.
const sim = await startSimulator({
  seed: 42,
  clock: 'manual',
  volume: { shipments: records, historyDays },
  ...(rowCap > 0 ? { rowCap } : {}),
});
process.send?.({ url: sim.url, now: sim.clock.now(), accounts: sim.world.accounts.map((a) => a.number) });
process.on('message', async () => {
  await sim.close();
  process.exit(0);
});
