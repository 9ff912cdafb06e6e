import { renderDataDictionary } from './dataDictionary.ts';
import { EVENT_SCHEMA_DIR, eventSchemaFiles } from './eventSchemas.ts';
import { eventTypeFiles } from './eventTypes.ts';

/** Where the data dictionary is published, relative to the repository root. */
export const DATA_DICTIONARY_PATH = 'docs/data-dictionary.md';

/** Folders whose every file is generated: a file there that is not generated any more is stale. */
export const GENERATED_FOLDERS = [EVENT_SCHEMA_DIR, 'schemas/types'];

/**
 * Every generated catalogue file, path (relative to the repository root) -> content: the data
 * dictionary, one JSON Schema per event type, and the TypeScript types of `fulfillment-sync/events`
 * generated from those schemas. `npm run docs:generate` writes them; the test
 * test/catalog/generated.test.ts fails when the committed files differ.
 */
export async function generatedFiles(): Promise<Map<string, string>> {
  return new Map([
    [DATA_DICTIONARY_PATH, renderDataDictionary()],
    ...eventSchemaFiles(),
    ...(await eventTypeFiles()),
  ]);
}
