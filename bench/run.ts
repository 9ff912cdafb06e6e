/**
 * `npm run bench [-- --records N]`: the engine's write stage against a plain COPY of the same rows
 * into the same tables, end to end from the simulator over HTTP, a no-op re-sync, and peak RSS, at
 * N records and at 100,000 (so that memory staying flat as work grows can be read off). Each size
 * runs in a process of its own (bench/phases.ts), so each peak RSS is that size's alone. Prints a
 * table and writes bench/results.json. Not a test: it asserts nothing about timing.
 */

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/runtime/packageRoot.ts';
import { positiveArg } from './args.ts';

interface PhaseResult {
  records: number;
  rows: number;
  copyRowsPerSec: number;
  writeVsCopy: number;
  endToEndVsCopy: number;
  noopVsCopy: number;
  noopTuplesWritten: number;
  peakRssMiB: number;
  [figure: string]: unknown;
}

const REFERENCE = 100_000;
/**
 * The V8 heap each size runs with. Left alone, V8 grows its heap long before it collects, so a peak
 * RSS says more about its laziness than about what the engine holds; with a fixed heap, finishing
 * a million records at all proves the working set bounded, and the RSS compares like with like.
 * A worker whose memory must stay bounded the same way can run with
 * NODE_OPTIONS=--max-old-space-size=128, at the price in collection time this run's ratios show.
 */
const HEAP_MIB = 128;

/** A positive whole number from `--name N` (see args.ts). */
function arg(name: string, fallback: number): number {
  return Math.floor(positiveArg(name, fallback));
}

/** Runs bench/phases.ts for one size in its own process; its last output line is the JSON result. */
function phase(records: number): PhaseResult {
  // Run compiled (`npm run bench` builds first), the figures are those of the code production runs,
  // without tsx's loader in the process.
  const compiled = import.meta.url.endsWith('.js');
  const script = new URL(compiled ? './phases.js' : './phases.ts', import.meta.url).pathname;
  const args = [
    `--max-old-space-size=${HEAP_MIB}`,
    ...(compiled ? [] : ['--import', 'tsx']),
    script,
    '--records',
    String(records),
  ];
  const out = execFileSync(process.execPath, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as PhaseResult;
}

const records = arg('records', 200_000);
const sizes = records === REFERENCE ? [REFERENCE] : [REFERENCE, records];
const bySize = new Map(sizes.map((size) => [size, phase(size)]));
const main = bySize.get(records) as PhaseResult;
const reference = bySize.get(REFERENCE) as PhaseResult;
const rssGrowth = Math.round((main.peakRssMiB / reference.peakRssMiB - 1) * 1000) / 1000;
const results = {
  ...main,
  heapLimitMiB: HEAP_MIB,
  peakRssMiBAt: Object.fromEntries(sizes.map((size) => [size, bySize.get(size)?.peakRssMiB])),
  rssGrowthFrom100k: rssGrowth,
  measuredAt: new Date().toISOString(),
};
console.table({
  'COPY (floor)': { 'rows/s': main.copyRowsPerSec, 'x COPY': 1 },
  'engine write stage': { 'rows/s': main.writeRowsPerSec, 'x COPY': main.writeVsCopy },
  'end to end (simulator)': { 'rows/s': main.endToEndRowsPerSec, 'x COPY': main.endToEndVsCopy },
  'unchanged re-sync': {
    'rows/s': main.noopRowsPerSec,
    'x COPY': main.noopVsCopy,
    'tuples written': main.noopTuplesWritten,
  },
});
console.log(
  `${records} shipment updates = ${main.rows} rows; peak RSS ${sizes.map((s) => `${bySize.get(s)?.peakRssMiB} MiB at ${s}`).join(', ')} (${rssGrowth >= 0 ? '+' : ''}${Math.round(rssGrowth * 100)}%)`,
);
// Beside the sources (bench/), not beside the compiled copy that runs (dist-bench/bench/).
writeFileSync(path.join(PACKAGE_ROOT, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
