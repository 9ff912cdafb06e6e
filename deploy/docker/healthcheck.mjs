// The container image's HEALTHCHECK: is the worker's HTTP server answering /healthz? It asks the port
// the worker wrote to HTTP_PORT_FILE once it listened (the image sets it), so any HTTP_PORT works,
// 0 (any free port) included; without the file it asks HTTP_PORT. Exit 0 healthy, 1 not.
import { readFileSync } from 'node:fs';

function port() {
  try {
    return readFileSync(process.env.HTTP_PORT_FILE ?? '', 'utf8').trim();
  } catch {
    return process.env.HTTP_PORT || '9464';
  }
}

try {
  const answer = await fetch(`http://127.0.0.1:${port()}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(answer.ok ? 0 : 1);
} catch {
  process.exit(1);
}
