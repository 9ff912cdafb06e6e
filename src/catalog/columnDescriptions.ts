import { ALL_TABLES } from '../db/allTables.ts';
import { columnText, relationShape } from '../db/comments/render.ts';
import { snakeOf } from '../sync/rows.ts';
import type { JsonSchema } from './jsonSchema.ts';

/**
 * Adds each field's column comment as its `description`. `members` (top level only) send a
 * member's object or array items to another table (header -> shipments, lineItems -> lines, ...).
 */
export function describeFields(
  node: JsonSchema,
  table: string | undefined,
  members: Record<string, string> = {},
): JsonSchema {
  const properties = node.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return node;
  const columns = table ? new Set(columnsOf(table)) : new Set<string>();
  const described: Record<string, JsonSchema> = {};
  for (const [field, schema] of Object.entries(properties)) {
    const memberTable = members[field];
    if (memberTable) {
      described[field] = mapObjects(schema, (object) => describeFields(object, memberTable));
      continue;
    }
    const column = snakeOf(field);
    const text = table && columns.has(column) ? columnText(table, column) : undefined;
    described[field] = text ? { description: text, ...schema } : schema;
  }
  return { ...node, properties: described };
}

/** Applies `fn` to the object schemas of a member: the object itself, or an array's items, nullable or not. */
function mapObjects(schema: JsonSchema, fn: (object: JsonSchema) => JsonSchema): JsonSchema {
  if (schema.type === 'object') return fn(schema);
  if (schema.type === 'array' && schema.items)
    return { ...schema, items: mapObjects(schema.items as JsonSchema, fn) };
  if (Array.isArray(schema.anyOf))
    return { ...schema, anyOf: (schema.anyOf as JsonSchema[]).map((s) => mapObjects(s, fn)) };
  return schema;
}

const COLUMNS_BY_TABLE = new Map(
  ALL_TABLES.map((table) => {
    const shape = relationShape(table);
    return [`${shape.schema}.${shape.name}`, shape.columns];
  }),
);

function columnsOf(table: string): readonly string[] {
  const columns = COLUMNS_BY_TABLE.get(table);
  if (!columns) throw new Error(`No table ${table} in the schema (src/catalog/subjectRecords.ts names it).`);
  return columns;
}
