import { adminRoutes } from "./admin.ts";
import { economicsRoutes } from "./economics.ts";
import { publicRoutes } from "./public.ts";
import { registryRoutes } from "./registry.ts";
import type { RouteSpec } from "./route-spec.ts";
import { serviceRoutes } from "./service.ts";
import { weatherRoutes } from "./weather.ts";

const ROUTE_GROUPS = [
  weatherRoutes,
  economicsRoutes,
  registryRoutes,
  serviceRoutes,
  adminRoutes,
  publicRoutes,
] as const;

/** Every operation of the contract, in the order the OpenAPI description lists them. */
export const ALL_ROUTES: RouteSpec[] = ROUTE_GROUPS.flat();

/** Every route as written, its name and data schema's type kept: the server types each handler by it. */
export type DeclaredRoute = (typeof ROUTE_GROUPS)[number][number];
