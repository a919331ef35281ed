import type { RouteHandlers } from "../http/route-handler.ts";
import { SerialisedSection } from "../http/serialised-section.ts";
import { DOCS_HEADERS } from "./docs-page.ts";

/** `GET /`: what the service is and where its docs, probes and status are; relative links survive a proxy's prefix. */

const LINKS: [href: string, text: string, what: string][] = [
  ["docs", "API reference", "every route, its parameters and answers, with “Try it out”"],
  ["api/v1/openapi.json", "OpenAPI description", "the same, machine-readable (OpenAPI 3.1)"],
  ["api/public/v1/status", "Status", "per domain, with when each feed last received data"],
  ["api/public/v1/health/live", "Liveness", "the process answers"],
  ["api/public/v1/health/ready", "Readiness", "the registry and the index are loaded"],
  ["api/v1/economics/indicators", "Indicators", "the registry of indicator families (JSON)"],
  ["api/public/v1/economics/releases?format=csv", "Newest releases as CSV", "every list of values also comes as CSV"],
];

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Weather and economics data service</title>
  <link rel="icon" href="data:,">
  <style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}dt{font-weight:600}dd{margin:0 0 .75rem}</style>
</head>
<body>
  <h1>Weather and economics data service</h1>
  <p>Provider-independent weather readings and official economic release data (U.S. Bureau of Labor Statistics,
  Eurostat, European Central Bank). Every answer carries its freshness, provenance and licensing.</p>
  <dl>
${LINKS.map(([href, text, what]) => `    <dt><a href="${href}">${text}</a></dt>\n    <dd>${what}</dd>`).join("\n")}
  </dl>
</body>
</html>
`;

const MOVED_TO_DOCS = "../docs";

export function frontDoorHandlers(): RouteHandlers {
  const page = new SerialisedSection(PAGE);
  const moved = new SerialisedSection(`Moved permanently to ${MOVED_TO_DOCS}\n`);
  return {
    "service.frontDoor": () => ({ data: page, headers: DOCS_HEADERS }),
    // Relative, so that a prefix a proxy serves the service under is kept.
    "docs.pageWithSlash": () => ({ data: moved, headers: { location: MOVED_TO_DOCS } }),
  };
}
