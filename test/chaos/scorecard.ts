/** A scenario's verdict: what it measured, and each guarantee it found broken. */
export interface ScenarioResult {
  id: number;
  title: string;
  passed: boolean;
  /** Measured figures, in the order they are printed. */
  figures: Record<string, number | string>;
  /** One line per broken guarantee (empty when passed). */
  failures: string[];
  seconds: number;
}

/** Collects figures and checks while a scenario runs. */
export class Verdict {
  readonly figures: Record<string, number | string> = {};
  readonly failures: string[] = [];

  /** Records a figure for the scorecard. */
  figure(name: string, value: number | string): void {
    this.figures[name] = value;
  }

  /** Records a guarantee: `ok` false adds a failure line naming it and what was seen. */
  check(guarantee: string, ok: boolean, seen?: string | number): void {
    if (!ok) this.failures.push(seen === undefined ? guarantee : `${guarantee} (seen: ${seen})`);
  }

  /** A figure that must equal `expected`: recorded and checked in one call. */
  expectEqual(name: string, value: number, expected: number): void {
    this.figure(name, value);
    this.check(`${name} = ${expected}`, value === expected, value);
  }
}

/** The scorecard as printed: one block per scenario, its figures, then its failures. */
export function formatScorecard(results: readonly ScenarioResult[]): string {
  const lines = ['', 'Chaos scorecard', '==============='];
  for (const r of results) {
    lines.push(`${r.passed ? 'PASS' : 'FAIL'}  ${r.id}. ${r.title}  (${r.seconds.toFixed(0)} s)`);
    for (const [name, value] of Object.entries(r.figures)) lines.push(`        ${name}: ${value}`);
    for (const failure of r.failures) lines.push(`      ✗ ${failure}`);
  }
  const passed = results.filter((r) => r.passed).length;
  lines.push('', `${passed} of ${results.length} scenarios passed`);
  return lines.join('\n');
}
