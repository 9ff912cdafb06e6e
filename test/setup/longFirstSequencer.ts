import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take longest on CI's 2 cores (mostly waiting: a real-time poll cadence, child
 * processes, simulated weeks), started first so that the shorter files fill the other workers
 * around them instead of one of them starting last and running alone. Order only: a file missing
 * here runs after these, as vitest would order it.
 */
export const LONG_FILES: readonly string[] = [
  'test/realtime/freshness.test.ts',
  'test/cli/readmeSandbox.test.ts',
  'test/worker/shutdown.test.ts',
  'test/backfill/interrupt.test.ts',
  'test/worker/selfHealing.test.ts',
  'test/sync/hostile-answers.test.ts',
  'test/sync/fault-week.test.ts',
  'test/redis/sentinel.test.ts',
  'test/redis/tls.test.ts',
  'test/cli/demo.test.ts',
  'test/package/builtPackage.test.ts',
];

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONG_FILES.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? LONG_FILES.length : index;
    };
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // Projects keep their order (sequence.groupOrder); Array.prototype.sort is stable, so files of
    // equal rank keep vitest's.
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}
