import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { SerialisedSection } from "../http/prepared-answer.ts";
import type { RouteHandler } from "../http/route-handler.ts";

/**
 * The documentation page at `/docs`: swagger-ui (the `swagger-ui-dist` package) rendering the description this server
 * publishes at `/api/v1/openapi.json`. Every file is read once at start and served from memory; nothing is fetched
 * from anywhere else, so the page works without a network. URLs are relative to the page, so it works on any host
 * and port.
 */

const require = createRequire(import.meta.url);

/**
 * A file of swagger-ui-dist without its source-map comment (the maps are not served). The path is found at once, so a
 * missing package stops the server at start; the file is read when called.
 */
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

// BaseLayout (no top bar with a URL box: the page shows this server's description only). The online validator badge
// would load an image from validator.swagger.io, so it is switched off.
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

/**
 * The page is where people paste API keys: no other site may frame it, and nothing may be read as another type.
 * Every script and style is this server's own file (swagger-ui sets some styles inline, data: images).
 */
export const DOCS_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
};

/** The page's files by route name: each read from disk at its first request, then served from memory. */
const FILES: Record<string, () => string> = {
  "docs.page": () => PAGE,
  "docs.stylesheet": swaggerUiFile("swagger-ui.css"),
  "docs.script": swaggerUiFile("swagger-ui-bundle.js"),
  "docs.scriptLicences": swaggerUiFile("swagger-ui-bundle.js.LICENSE.txt"),
  "docs.initializer": () => INITIALIZER,
};

/**
 * The files never change while the process runs, so every app of the process shares one reading. They are about 2 MB
 * of swagger-ui, and most servers are never asked for them: they are read when first asked for, not at start.
 */
const readings = new Map<string, SerialisedSection>();

export function docsPageHandlers(): Record<string, RouteHandler> {
  const served = (name: string, read: () => string) => () => {
    if (!readings.has(name)) readings.set(name, new SerialisedSection(read()));
    return { data: readings.get(name)!, headers: DOCS_HEADERS };
  };
  return Object.fromEntries(Object.entries(FILES).map(([name, read]) => [name, served(name, read)]));
}
