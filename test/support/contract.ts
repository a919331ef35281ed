import type { ValidateFunction } from "ajv";
import { readCsvTable } from "../../cli/ingest/adapters/csv.ts";
import type { JsonSchema } from "../../schemas/json-schema.ts";
import { envelopeSchema, errorBodySchema } from "../../schemas/responses/envelope.ts";
import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import { createValidator } from "../../schemas/validator.ts";

const ajv = createValidator();
const validateError = ajv.compile(errorBodySchema);
const successValidators = new Map<string, ValidateFunction>();

function routeFor(method: string, pathname: string): RouteSpec | undefined {
  const wanted = method === "HEAD" ? "GET" : method;
  return ALL_ROUTES.find(
    (route) => route.method === wanted && new RegExp(`^${route.path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`).test(pathname),
  );
}

/** Checks a received body against the JSON Schema of its route (success) or the error body schema; throws on mismatch. */
export function assertContract(method: string, url: URL, status: number, body: unknown): void {
  if (status >= 400) {
    if (!validateError(body))
      throw new Error(
        `error body of ${method} ${url.pathname} breaks the contract: ${ajv.errorsText(validateError.errors)}`,
      );
    return;
  }
  const route = routeFor(method, url.pathname);
  if (!route) throw new Error(`no route spec for ${method} ${url.pathname}`);
  if (route.name === "v1.openapi") return;
  let validate = successValidators.get(route.name);
  if (!validate) {
    validate = ajv.compile(envelopeSchema(route.dataSchema, route.metaFields));
    successValidators.set(route.name, validate);
  }
  if (!validate(body))
    throw new Error(`body of ${method} ${url.pathname} breaks the contract: ${ajv.errorsText(validate.errors)}`);
}

/** A CSV body as records of fields, header first, read by the ingestion's own RFC 4180 reader (not csv-stringify). */
export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const table = readCsvTable("ecb-data", text, []);
  if (new Set(table.header).size !== table.header.length) throw new Error(`repeated CSV column in ${table.header}`);
  return { header: table.header, rows: table.rows.map((row) => table.header.map((name) => row.cell(name))) };
}

const csvValidators = new Map<string, ValidateFunction>();

/**
 * Checks a CSV success body against its route's CSV form: RFC 4180 with CRLF line ends, a header row naming one of
 * the form's column sets, and every row as wide as its header. Returns the parsed records.
 */
export function assertCsvContract(method: string, url: URL, text: string): { header: string[]; rows: string[][] } {
  const route = routeFor(method, url.pathname);
  if (!route?.csv) throw new Error(`${method} ${url.pathname} has no CSV form but answered CSV`);
  if (!/^[^\r\n]*\r\n/.test(text) || !text.endsWith("\r\n"))
    throw new Error(`CSV of ${url.pathname} does not end its records with CRLF`);
  const table = parseCsv(text);
  let validate = csvValidators.get(route.name);
  if (!validate) {
    const schemaOf = (names: string[]): JsonSchema => ({
      type: "object",
      properties: {
        header: { const: names },
        rows: {
          type: "array",
          items: { type: "array", items: { type: "string" }, minItems: names.length, maxItems: names.length },
        },
      },
      required: ["header", "rows"],
    });
    validate = ajv.compile({ oneOf: route.csv.tables.map((table) => schemaOf(table.columns.map((c) => c.name))) });
    csvValidators.set(route.name, validate);
  }
  if (!validate(table))
    throw new Error(`CSV of ${method} ${url.pathname} breaks the contract: ${ajv.errorsText(validate.errors)}`);
  return table;
}
