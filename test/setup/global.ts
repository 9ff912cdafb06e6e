import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { resolveTestServices } from './services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

/** Resolves the real Postgres and Redis once per run and hands their URLs to every test file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await resolveTestServices();
  project.provide('databaseUrl', services.databaseUrl);
  project.provide('redisUrl', services.redisUrl);
  return services.stop;
}
