/**
 * The simulator in its own process for the end-to-end figure, as a real upstream would be: the
 * parent gets `{url, now, accounts}` over IPC and sends 'close' when done.
 */
import { startSimulator } from '../src/simulator/index.ts';

const records = Number(process.argv[2]);
const historyDays = Number(process.argv[3]);
const sim = await startSimulator({ seed: 42, clock: 'manual', volume: { shipments: records, historyDays } });
process.send?.({ url: sim.url, now: sim.clock.now(), accounts: sim.world.accounts.map((a) => a.number) });
process.on('message', async () => {
  await sim.close();
  process.exit(0);
});
