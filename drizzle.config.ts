import { defineConfig } from 'drizzle-kit';

/** drizzle-kit: generates migrations from the schema (CI checks that it generates nothing new). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './migrations',
  schemaFilter: ['fulfillment', 'fulfillment_masked', 'analytics', 'sync'],
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/fulfillment' },
});
