import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { EVENT_SCHEMA_DIR } from '../../src/catalog/eventSchemas.ts';
import { REPO_ROOT } from './cli.ts';

// ajv-formats is CommonJS; its plugin is also exported as `default`, which both TS and Node see.
const addFormats = addFormatsModule.default;

/**
 * A validator of one type's published schema, read from disk (schemas/events/<type>.json): what a
 * subscriber downloads, checked strictly as test/catalog/eventSchemas.test.ts checks it.
 */
export function compileSchema(type: string): ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  const file = path.join(REPO_ROOT, EVENT_SCHEMA_DIR, `${type}.json`);
  return ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
}
