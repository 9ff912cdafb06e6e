import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { resolveTestServices } from './services.ts';
import { prepareTemplateDatabase } from './templateDatabase.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    /** A migrated database to clone per test file (see test/helpers/db.ts). */
    templateDatabase: string;
  }
}

/**
 * Resolves the real Postgres and Redis once per run and hands their URLs to every test file, with a
 * template database migrated once per run (per schema) for test/helpers/db.ts to clone.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await resolveTestServices();
  project.provide('databaseUrl', services.databaseUrl);
  project.provide('redisUrl', services.redisUrl);
  const template = await prepareTemplateDatabase(services.databaseUrl).catch(async (error: unknown) => {
    await services.stop();
    throw error;
  });
  project.provide('templateDatabase', template.name);
  return async () => {
    await template.release();
    await services.stop();
  };
}
