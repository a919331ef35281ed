import type { ValidateFunction } from "ajv";
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
