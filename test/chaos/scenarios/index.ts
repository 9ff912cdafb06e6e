import type { Scenario } from '../scenario.ts';
import { faultConvergence } from './1-faultConvergence.ts';
import { killWorker } from './2-killWorker.ts';
import { serviceRestarts } from './3-serviceRestarts.ts';
import { threeWorkers } from './4-threeWorkers.ts';
import { flakyReceiver } from './5-flakyReceiver.ts';
import { badInput } from './6-badInput.ts';

/** Every scenario, in the order the scorecard prints them. */
export const SCENARIOS: readonly Scenario[] = [
  faultConvergence,
  killWorker,
  serviceRestarts,
  threeWorkers,
  flakyReceiver,
  badInput,
];
