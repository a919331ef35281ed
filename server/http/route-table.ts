// The routes by path, as the pipeline's first step finds them (pipeline.ts).
import { addRoute, createRouter, findRoute } from "rou3";
import type { RouteSpec } from "../../schemas/routes/route-spec.ts";
import type { RouteHandler } from "./route-handler.ts";

export interface BoundRoute {
  spec: RouteSpec;
  handler: RouteHandler;
}

/** The routes of the path a request names (one per method) and that path's parameters. */
export interface PathMatch {
  routes: BoundRoute[];
  params?: Record<string, string>;
}

/**
 * A path's routes together, so it answers 405 for its other methods. Paths without parameters are looked up exactly.
 */
export function createRouteTable(routes: readonly BoundRoute[]): { find(pathname: string): PathMatch | undefined } {
  const byPath = new Map<string, BoundRoute[]>();
  for (const route of routes) byPath.set(route.spec.path, [...(byPath.get(route.spec.path) ?? []), route]);
  const router = createRouter<BoundRoute[]>();
  const exactPaths = new Map<string, PathMatch>();
  for (const [path, pathRoutes] of byPath) {
    if (!path.includes("{")) exactPaths.set(path, { routes: pathRoutes });
    else addRoute(router, "", path.replace(/\{([^}]+)\}/g, ":$1"), pathRoutes);
  }
  return {
    // The router also matches `/x/` to `/x`: a path we do not publish must not answer, so a path with a trailing
    // slash answers only where a route names it so.
    find(pathname) {
      const exact = exactPaths.get(pathname);
      if (exact || (pathname.length > 1 && pathname.endsWith("/"))) return exact;
      const match = findRoute(router, "", pathname);
      return match && { routes: match.data, params: match.params };
    },
  };
}
