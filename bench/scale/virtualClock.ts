/**
 * Preloaded into the benchmark's worker processes (`node --import`): the wall clock of the process
 * follows the simulator's manual clock. The worker's engine reads the real now (the CLI gives it no
 * clock; `createEngineRunner`'s `now` is only set by tests), so without this the world could not
 * move an hour or a day between two cycles of a benchmark that lasts minutes: the engine would read
 * windows up to a now the world has not reached, and products would never see a new day.
 *
 * Only the wall clock (`Date.now()`, `new Date()`) is shifted, by one offset for the whole process;
 * timers, `performance.now()`, and the clocks of Redis (the shared rate limit) and Postgres (leases)
 * are real, so pacing and exclusivity are measured as they are. The benchmark sends a new offset over
 * IPC whenever it advances the simulator: `{ clockOffsetMs }`, acknowledged with the same message.
 */

const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);
let offsetMs = Number(process.env.BENCH_CLOCK_OFFSET_MS ?? '0');

RealDate.now = () => realNow() + offsetMs;
// A proxy, not a subclass: every Date (also those Node makes internally) stays `instanceof Date`.
globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) =>
    Reflect.construct(target, args.length === 0 ? [realNow() + offsetMs] : args, newTarget),
  apply: () => new RealDate(realNow() + offsetMs).toString(),
});

process.on('message', (message: { clockOffsetMs?: unknown }) => {
  if (typeof message?.clockOffsetMs !== 'number') return;
  offsetMs = message.clockOffsetMs;
  process.send?.({ clockOffsetMs: offsetMs });
});
// The benchmark is gone: stop as on SIGTERM rather than run on orphaned.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
