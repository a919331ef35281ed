import { ALL_ROUTES } from "../../schemas/routes/all-routes.ts";

/**
 * The operations a client can discover, read from the OpenAPI description the service itself serves (so the fuzz
 * covers what is published, not what the tests think is published), plus the operator routes, which the served copy
 * leaves out on purpose and which only schemas/routes still names.
 */

export interface OperationParameter {
  name: string;
  in: "query" | "path";
  required: boolean;
  description: string;
  schema: { type?: string; enum?: string[]; minimum?: number; maximum?: number; pattern?: string };
}

export interface Operation {
  id: string;
  method: string;
  /** OpenAPI path template, e.g. `/api/v1/economics/indicators/{slug}`. */
  path: string;
  /** PUBLIC needs nothing; KEY needs any valid key with `scope` (any key when null); OPERATOR needs an operator key. */
  access: "PUBLIC" | "KEY" | "OPERATOR";
  scope: string | null;
  parameters: OperationParameter[];
}

interface OpenApiOperation {
  operationId: string;
  parameters?: OperationParameter[];
  "x-service-access": string;
  "x-service-required-scope": string | null;
}

export function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const served = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(
      ([method, operation]): Operation => ({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        access: operation["x-service-access"] === "PUBLIC" ? "PUBLIC" : "KEY",
        scope: operation["x-service-required-scope"],
        parameters: operation.parameters ?? [],
      }),
    ),
  );
  const operator = ALL_ROUTES.filter((route) => route.access === "OPERATOR").map(
    (route): Operation => ({
      id: route.name,
      method: route.method,
      path: route.path,
      access: "OPERATOR",
      scope: route.scope,
      parameters: route.parameters.map((parameter) => ({
        ...parameter,
        schema: parameter.schema as OperationParameter["schema"],
      })),
    }),
  );
  const withHeads = (operations: Operation[]) =>
    operations.flatMap((operation) =>
      operation.method === "GET"
        ? [operation, { ...operation, id: `${operation.id}.head`, method: "HEAD" }]
        : [operation],
    );
  // Every GET also answers HEAD, which the description says once rather than listing it per path.
  return withHeads([...served, ...operator]);
}
