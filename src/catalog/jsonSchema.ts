/** JSON Schema as plain data. */
export type JsonSchema = { [key: string]: unknown };
