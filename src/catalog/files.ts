import { renderDataDictionary } from './dataDictionary.ts';
import { EVENT_SCHEMA_DIR, eventSchemaFiles } from './eventSchemas.ts';

/** Where the data dictionary is published, relative to the repository root. */
export const DATA_DICTIONARY_PATH = 'docs/data-dictionary.md';

/** Folders whose every file is generated: a file there that is not generated any more is stale. */
export const GENERATED_FOLDERS = [EVENT_SCHEMA_DIR];

/**
 * Every generated catalogue file, path (relative to the repository root) -> content: the data
 * dictionary and one JSON Schema per event type. `npm run docs:generate` writes them; the test
 * test/catalog/generated.test.ts fails when the committed files differ.
 */
export function generatedFiles(): Map<string, string> {
  return new Map([[DATA_DICTIONARY_PATH, renderDataDictionary()], ...eventSchemaFiles()]);
}
