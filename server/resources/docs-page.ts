import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { RouteData, RouteHandlers } from "../http/route-handler.ts";
import { SerialisedSection } from "../http/serialised-section.ts";

/**
 * `/docs`: swagger-ui (`swagger-ui-dist`) rendering this server's `/api/v1/openapi.json`. Nothing is fetched from
 * elsewhere, so the page works without a network; URLs are relative, so it works on any host and port.
 */

const require = createRequire(import.meta.url);

/** A swagger-ui-dist file without its source-map comment; resolved now, so a missing package stops the start. */
function swaggerUiFile(name: string): () => string {
  const path = require.resolve(`swagger-ui-dist/${name}`);
  return () => readFileSync(path, "utf8").replace(/\n*\/[*/]# sourceMappingURL=[^\n]*\s*$/, "\n");
}

// `data:,` as the icon keeps the browser from asking for /favicon.ico.
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Weather and economics data service: API reference</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/docs-page.js"></script>
</body>
</html>
`;

// BaseLayout: no URL box (this server's description only). No validator badge: it loads from validator.swagger.io.
const INITIALIZER = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: new URL("api/v1/openapi.json", document.baseURI).href,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    validatorUrl: null,
  });
});
`;

/** People paste API keys here: no framing, no sniffing, only this server's files (swagger-ui inlines some styles). */
export const DOCS_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
};

/** The page's files by route name. */
const FILES = {
  "docs.page": () => PAGE,
  "docs.stylesheet": swaggerUiFile("swagger-ui.css"),
  "docs.script": swaggerUiFile("swagger-ui-bundle.js"),
  "docs.scriptLicences": swaggerUiFile("swagger-ui-bundle.js.LICENSE.txt"),
  "docs.initializer": () => INITIALIZER,
} satisfies { [N in keyof RouteData]?: () => string };

/** About 2 MB that most servers are never asked for: read at the first request, shared by every app of the process. */
const readings = new Map<string, SerialisedSection>();

export function docsPageHandlers(): RouteHandlers {
  const served = (name: string, read: () => string) => () => {
    if (!readings.has(name)) readings.set(name, new SerialisedSection(read()));
    return { data: readings.get(name)!, headers: DOCS_HEADERS };
  };
  return Object.fromEntries(Object.entries(FILES).map(([name, read]) => [name, served(name, read)]));
}
