/** Small builders for JSON Schema 2020-12 (the OpenAPI 3.1 dialect), so schemas read like the spec's tables. */

export type JsonSchema = Record<string, unknown>;

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: "string", ...extra });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: "integer", ...extra });
export const num = (extra: JsonSchema = {}): JsonSchema => ({ type: "number", ...extra });
export const bool = (): JsonSchema => ({ type: "boolean" });
export const dateTime = (): JsonSchema => ({ type: "string", format: "date-time" });
export const date = (): JsonSchema => ({ type: "string", format: "date" });
export const enumOf = (values: readonly string[]): JsonSchema => ({ type: "string", enum: [...values] });
export const arrayOf = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: "array", items, ...extra });

/** A value or null: optional measurements are never absent (spec general rule 1). */
export function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === "string") {
    const withNull: JsonSchema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum)) withNull.enum = [...(schema.enum as unknown[]), null];
    return withNull;
  }
  return { anyOf: [schema, { type: "null" }] };
}

/** An object whose listed properties are all required, unless named in `optional`. */
export function obj(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: "object",
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
  };
}
