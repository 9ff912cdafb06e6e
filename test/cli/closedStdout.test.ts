import { describe, expect, it } from 'vitest';
import { spawnSourceCli } from '../helpers/cli.ts';

/**
 * `fulfillment-sync demo | head` and the like: the reader goes away before the command has printed
 * everything. That is the user's choice, not a failure of the command, so it ends quietly with its
 * own exit code, as other command-line tools do, never with an "Unhandled 'error' event" stack trace.
 */
describe('a command whose stdout reader has gone', () => {
  it('ends quietly with exit 0, printing no stack trace', async () => {
    const child = spawnSourceCli(['config'], {
      env: { ...process.env, FULFILLMENT_API_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the child has printed anything: its first write meets EPIPE.
    child.stdout?.destroy();
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(code).toBe(0);
  });
});
