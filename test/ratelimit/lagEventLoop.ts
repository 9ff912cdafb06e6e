/**
 * Blocks this process's event loop for `ms` every `everyMs` with a real busy loop (no fake clock):
 * every timer and every socket reply due meanwhile runs late, as behind a large JSON.parse or a
 * diff of many rows. Returns the function that stops it.
 */
export function lagEventLoop(ms: number, everyMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy: the event loop is held
    }
  }, everyMs);
  return () => clearInterval(timer);
}
