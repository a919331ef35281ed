/**
 * Small builders for JSON Schema 2020-12 (the OpenAPI 3.1 dialect), so schemas read like the spec's tables. Each one
 * also carries the TypeScript type of what it admits (`Typed`, as TypeBox's `Type.Unsafe` types it), so the server's
 * types derive from the contract. The type lives only in TypeScript: importing TypeBox here would load its 200 modules
 * at every start of the CLI, for a tag nothing reads.
 */
export type JsonSchema = Record<string, unknown>;

/** A schema and, for TypeScript only, the type of what it admits. */
export type Typed<T> = JsonSchema & { readonly static: T };
const typed = <T>(schema: JsonSchema) => schema as Typed<T>;

/** The type of what a builder's schema admits (never narrower); unknown for a schema written as plain JSON. */
export type Static<S> = S extends { static: infer T } ? T : unknown;

/** The record an `obj(properties, optional)` schema admits. */
export type Fields<P, O extends string = never> = { [K in keyof P as K extends O ? never : K]: Static<P[K]> } & {
  [K in keyof P as K extends O ? K : never]?: Static<P[K]>;
};

export const str = (extra: JsonSchema = {}) => typed<string>({ type: "string", ...extra });
export const int = (extra: JsonSchema = {}) => typed<number>({ type: "integer", ...extra });
export const num = (extra: JsonSchema = {}) => typed<number>({ type: "number", ...extra });
export const bool = () => typed<boolean>({ type: "boolean" });
export const dateTime = () => typed<string>({ type: "string", format: "date-time" });
export const date = () => typed<string>({ type: "string", format: "date" });
export const enumOf = <const V extends readonly string[]>(values: V) =>
  typed<V[number]>({ type: "string", enum: [...values] });
export const arrayOf = <S extends JsonSchema>(items: S, extra: JsonSchema = {}) =>
  typed<Static<S>[]>({ type: "array", items, ...extra });

/** Exactly one of the schemas: the union of what they admit. */
export const oneOf = <const S extends readonly JsonSchema[]>(...schemas: S) =>
  typed<Static<S[number]>>({ oneOf: schemas });

/** A value or null: optional measurements are never absent (spec general rule 1). */
export function nullable<S extends JsonSchema>(schema: S): Typed<Static<S> | null> {
  const type = schema.type;
  if (typeof type === "string") {
    const withNull: JsonSchema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum)) withNull.enum = [...(schema.enum as unknown[]), null];
    return typed(withNull);
  }
  return typed({ anyOf: [schema, { type: "null" }] });
}

/** An object whose listed properties are all required, unless named in `optional`. */
export function obj<P extends Record<string, JsonSchema>, O extends string = never>(
  properties: P,
  optional: readonly O[] = [],
): Typed<Fields<P, O>> {
  return typed({
    type: "object",
    properties,
    required: Object.keys(properties).filter((key) => !(optional as readonly string[]).includes(key)),
  });
}
