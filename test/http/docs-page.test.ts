import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_LAUNCH, chromiumInstalled } from "../support/headless-chromium.ts";
import { type RunningService, startService } from "../support/service.ts";

/**
 * The documentation page at `/docs`: its files over real HTTP, then the page itself in headless Chromium (Debian's
 * `chromium` package) against the real server, with a "Try it out" request answered live.
 */

const DOCS_FILES = [
  { path: "/docs", mediaType: "text/html; charset=utf-8" },
  { path: "/docs/swagger-ui.css", mediaType: "text/css; charset=utf-8" },
  { path: "/docs/swagger-ui-bundle.js", mediaType: "text/javascript; charset=utf-8" },
  { path: "/docs/swagger-ui-bundle.js.LICENSE.txt", mediaType: "text/plain; charset=utf-8" },
  { path: "/docs/docs-page.js", mediaType: "text/javascript; charset=utf-8" },
];

describe("the documentation page's files over HTTP", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it("serves the page and its assets with their media types, browser caching and a weak ETag", async () => {
    for (const file of DOCS_FILES) {
      const response = await fetch(`${service.url}${file.path}`);
      expect(response.status, file.path).toBe(200);
      expect(response.headers.get("content-type"), file.path).toBe(file.mediaType);
      expect(response.headers.get("cache-control"), file.path).toBe("public, max-age=3600");
      expect(response.headers.get("x-request-id"), file.path).toMatch(/^[0-9a-f-]{36}$/);
      const etag = response.headers.get("etag")!;
      expect(etag, file.path).toMatch(/^W\/".+"$/);
      expect((await response.text()).length, file.path).toBeGreaterThan(100);
      const again = await fetch(`${service.url}${file.path}`, { headers: { "if-none-match": etag } });
      expect(again.status, file.path).toBe(304);
    }
  });

  it("points the page at this server's description and assets by relative URLs, and at no other host", async () => {
    const page = await (await fetch(`${service.url}/docs`)).text();
    const initializer = await (await fetch(`${service.url}/docs/docs-page.js`)).text();
    expect(page).toContain(`src="docs/swagger-ui-bundle.js"`);
    expect(page).toContain(`href="docs/swagger-ui.css"`);
    expect(initializer).toContain(`"api/v1/openapi.json"`);
    for (const text of [page, initializer]) expect(text).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    // The stylesheet's source-map comment is dropped: the map is not served.
    expect(await (await fetch(`${service.url}/docs/swagger-ui.css`)).text()).not.toContain("sourceMappingURL");
    // The script's first line names its licence file, which is served beside it.
    const script = await (await fetch(`${service.url}/docs/swagger-ui-bundle.js`)).text();
    expect(script.slice(0, 100)).toContain("see swagger-ui-bundle.js.LICENSE.txt");
    expect(await (await fetch(`${service.url}/docs/swagger-ui-bundle.js.LICENSE.txt`)).text()).toContain("MIT License");
  });

  it("answers HEAD without a body, /docs/ with a move to /docs and other methods with 405", async () => {
    const head = await fetch(`${service.url}/docs`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await head.text()).toBe("");
    // Relative, so that a path prefix a proxy adds is kept.
    const slash = await fetch(`${service.url}/docs/`, { redirect: "manual" });
    expect(slash.status).toBe(301);
    expect(slash.headers.get("location")).toBe("../docs");
    const followed = await fetch(`${service.url}/docs/`);
    expect(followed.url).toBe(`${service.url}/docs`);
    expect(await followed.text()).toContain("swagger-ui-bundle.js");
    // Any other path with a trailing slash stays unregistered.
    for (const path of ["/api/v1/openapi.json/", "/docs/swagger-ui.css/", "/api/public/v1/status/"]) {
      const other = await service.request(path);
      expect(other.status, path).toBe(404);
      expect(other.body.error.code).toBe("NOT_FOUND");
    }
    const post = await service.request("/docs", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("leaves the page and its assets out of the OpenAPI description", async () => {
    const document = (await service.request("/api/v1/openapi.json")).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/docs") || path === "/")).toEqual([]);
  });

  it("answers / with a page naming the service, its docs, description, probes and status by relative links", async () => {
    const response = await fetch(`${service.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const page = await response.text();
    expect(page).toContain("<title>Weather and economics data service</title>");
    const links = [...page.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!).filter((href) => href !== "data:,");
    for (const wanted of [
      "docs",
      "api/v1/openapi.json",
      "api/public/v1/status",
      "api/public/v1/health/live",
      "api/public/v1/health/ready",
    ])
      expect(links).toContain(wanted);
    // Every link is relative and leads to a route of this server (ready and the data routes may be 503 here).
    for (const href of links) {
      expect(href, href).not.toMatch(/^(\/|[a-z]+:)/);
      const linked = await fetch(new URL(href, `${service.url}/`));
      expect([200, 503], href).toContain(linked.status);
    }
    const head = await fetch(`${service.url}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

if (!chromiumInstalled)
  console.warn(
    `docs page browser test skipped: ${CHROMIUM} is missing (install Debian's "chromium" package: apt-get install chromium)`,
  );

describe.skipIf(!chromiumInstalled)(
  `the documentation page in headless Chromium (skipped without ${CHROMIUM}, Debian package "chromium")`,
  () => {
    let service: RunningService;
    let browser: Browser;
    let page: Page;
    const requested: string[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      service = await startService();
      browser = await chromium.launch(CHROMIUM_LAUNCH);
      page = await browser.newPage();
      page.on("request", (request) => void requested.push(request.url()));
      page.on("pageerror", (error) => void pageErrors.push(error.message));
      await page.goto(`${service.url}/docs`);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await service?.close();
    });

    it("renders every route group of the live description", async () => {
      const document = (await service.request("/api/v1/openapi.json")).body as {
        tags: { name: string }[];
        paths: Record<string, Record<string, { tags: string[] }>>;
      };
      const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
      const groups = new Set(operations.flatMap((operation) => operation.tags));
      expect([...groups].sort()).toEqual(["economics", "news", "registry", "service", "status", "weather"]);
      // The description names only groups that hold operations, so the page shows no empty group (nor the operators' one).
      expect(document.tags.map((tag) => tag.name).sort()).toEqual([...groups].sort());
      await page.locator(".swagger-ui .info .title").waitFor({ timeout: 30_000 });
      expect(await page.locator(".swagger-ui .info .title").innerText()).toContain(
        "Weather and economics data service",
      );
      await expect
        .poll(
          () =>
            page
              .locator("h3.opblock-tag")
              .evaluateAll((headings) => headings.map((heading) => heading.getAttribute("data-tag"))),
          { timeout: 30_000 },
        )
        .toEqual(document.tags.map((tag) => tag.name));
      // Every operation of the description is listed under its group, each route once (no HEAD rows).
      expect(await page.locator(".opblock").count()).toBe(operations.length);
      expect(await page.locator(".opblock-head").count()).toBe(0);
      expect(operations.length).toBe(Object.keys(document.paths).length);
    }, 60_000);

    it("shows example values for parameters and error examples with the code of their status", async () => {
      const operation = page
        .locator(".opblock-get")
        .filter({ has: page.locator(`.opblock-summary-path[data-path="/api/public/v1/economics/observations"]`) });
      await operation.locator(".opblock-summary-control").click();
      const series = operation.locator('tr[data-param-name="series"]');
      await series.waitFor({ timeout: 30_000 });
      expect(await series.innerText()).toContain("us-cpi-all-items-nsa");
      const notFound = operation.locator('tr.response[data-code="404"]');
      expect(await notFound.innerText()).toContain('"code": "NOT_FOUND"');
      expect(await notFound.innerText()).not.toContain("BAD_REQUEST");
      const unavailable = operation.locator('tr.response[data-code="503"]');
      expect(await unavailable.innerText()).toContain('"code": "SERVICE_UNAVAILABLE"');
    }, 60_000);

    it("sends a 'Try it out' request to the running server and shows its live answer", async () => {
      const operation = page
        .locator(".opblock-get")
        .filter({ has: page.locator(`.opblock-summary-path[data-path="/api/public/v1/health/live"]`) });
      await operation.locator(".opblock-summary-control").click();
      await operation.locator("button.try-out__btn").click();
      await operation.locator("button.execute").click();
      const response = operation.locator(".live-responses-table .response");
      await response.first().waitFor({ timeout: 30_000 });
      expect((await response.locator(".response-col_status").first().innerText()).trim()).toBe("200");
      const shown = JSON.parse(
        await response.locator(".response-col_description pre.microlight").first().innerText(),
      ) as { data: unknown; meta: { requestId: string } };
      expect(shown.data).toEqual({ status: "live" });
      // The answer shown is the one this server logged for that very request.
      expect(service.logEntries).toContainEqual(
        expect.objectContaining({ route: "public.health.live", status: 200, requestId: shown.meta.requestId }),
      );
    }, 60_000);

    it("loads nothing from any host but the server under test and raises no script error", () => {
      const origin = new URL(service.url).origin;
      const elsewhere = requested.filter((url) => /^(https?|wss?):/.test(url) && new URL(url).origin !== origin);
      expect(requested).toContain(`${origin}/docs/swagger-ui-bundle.js`);
      expect(requested).toContain(`${origin}/api/v1/openapi.json`);
      expect(elsewhere).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  },
);
