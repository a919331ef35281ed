import { Ajv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./json-schema.ts";

// ajv-formats ships CommonJS typings whose default export is the plugin itself.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One ajv instance for the JSON Schema 2020-12 dialect (the one OpenAPI 3.1 uses), with formats checked. */
export function createValidator(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, ...options });
  addFormats(ajv);
  ajv.addKeyword("example");
  return ajv;
}

/**
 * A check that throws with ajv's error list (where and which rule, not the data's values), for data the process itself
 * produced or an upstream sent; `options` are ajv's, over createValidator's. The schema is compiled on first use, not at
 * import, so commands that never check (`--help`) do not pay for ajv's code generation.
 */
export function compileAssertion<T>(schema: JsonSchema, what: string, options?: Options): (value: unknown) => T {
  let compiled: ValidateFunction | undefined;
  return (value) => {
    compiled ??= createValidator(options).compile(schema);
    const validate = compiled;
    if (!validate(value)) {
      const details = (validate.errors ?? [])
        .slice(0, 5)
        .map((error) => `${error.instancePath || "/"} ${error.message}`)
        .join("; ");
      throw new Error(`${what} is invalid: ${details}`);
    }
    return value as T;
  };
}
