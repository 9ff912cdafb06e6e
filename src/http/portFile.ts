import { rmSync, writeFileSync } from 'node:fs';

/**
 * HTTP_PORT_FILE: where a worker writes the port it listens on, once it listens. With HTTP_PORT=0
 * (any free port) nothing else tells a health check or a scraper where to look; the container
 * image's health check reads it (deploy/docker/healthcheck.mjs).
 */
export function writePortFile(file: string | undefined, port: number): void {
  if (!file) return;
  try {
    writeFileSync(file, `${port}\n`);
  } catch (error) {
    throw new Error(`HTTP_PORT_FILE: cannot write ${file}: ${(error as Error).message}`);
  }
}

/** Removes the port file at shutdown, so a stale port is never probed; a missing file is fine. */
export function removePortFile(file: string | undefined): void {
  if (file) rmSync(file, { force: true });
}
