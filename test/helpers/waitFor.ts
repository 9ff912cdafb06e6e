/**
 * Polls `check` until it holds, or throws `timed out waiting for <what>` after `timeoutMs`: the one
 * way tests wait for something to happen, never a fixed sleep.
 *
 * @example
 * await waitFor('the webhook to arrive', () => receiver.received('/hook').length === 1);
 */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
