import { type TUnsafe, Type } from "@sinclair/typebox";

/**
 * Small builders for JSON Schema 2020-12 (the OpenAPI 3.1 dialect), so schemas read like the spec's tables. Each one
 * also carries the TypeScript type of what it admits (TypeBox's `Type.Unsafe`), so the server's types derive from the
 * contract; the JSON is written out here rather than by TypeBox's builders, which order keys differently.
 */
export type JsonSchema = Record<string, unknown>;

/** The type of what a builder's schema admits (never narrower); unknown for a schema written as plain JSON. */
export type Static<S> = S extends { static: infer T } ? T : unknown;

/** The record an `obj(properties, optional)` schema admits. */
export type Fields<P, O extends string = never> = { [K in keyof P as K extends O ? never : K]: Static<P[K]> } & {
  [K in keyof P as K extends O ? K : never]?: Static<P[K]>;
};

export const str = (extra: JsonSchema = {}) => Type.Unsafe<string>({ type: "string", ...extra });
export const int = (extra: JsonSchema = {}) => Type.Unsafe<number>({ type: "integer", ...extra });
export const num = (extra: JsonSchema = {}) => Type.Unsafe<number>({ type: "number", ...extra });
export const bool = () => Type.Unsafe<boolean>({ type: "boolean" });
export const dateTime = () => Type.Unsafe<string>({ type: "string", format: "date-time" });
export const date = () => Type.Unsafe<string>({ type: "string", format: "date" });
export const enumOf = <const V extends readonly string[]>(values: V) =>
  Type.Unsafe<V[number]>({ type: "string", enum: [...values] });
export const arrayOf = <S extends JsonSchema>(items: S, extra: JsonSchema = {}) =>
  Type.Unsafe<Static<S>[]>({ type: "array", items, ...extra });

/** A value or null: optional measurements are never absent (spec general rule 1). */
export function nullable<S extends JsonSchema>(schema: S): TUnsafe<Static<S> | null> {
  const type = schema.type;
  if (typeof type === "string") {
    const withNull: JsonSchema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum)) withNull.enum = [...(schema.enum as unknown[]), null];
    return Type.Unsafe(withNull);
  }
  return Type.Unsafe({ anyOf: [schema, { type: "null" }] });
}

/** An object whose listed properties are all required, unless named in `optional`. */
export function obj<P extends Record<string, JsonSchema>, O extends string = never>(
  properties: P,
  optional: readonly O[] = [],
): TUnsafe<Fields<P, O>> {
  return Type.Unsafe({
    type: "object",
    properties,
    required: Object.keys(properties).filter((key) => !(optional as readonly string[]).includes(key)),
  });
}
