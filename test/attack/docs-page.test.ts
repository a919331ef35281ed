import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../support/service.ts";

/**
 * The /docs page (server/resources/docs-page.ts) as an attacker's page would use it: framed, sniffed, or fed a
 * description from elsewhere. The page is where people paste API keys ("Authorize"), so it is worth guarding.
 */

describe("the documentation page's browser-facing guards", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it("runs no inline script, so a strict script-src 'self' policy would hold", async () => {
    const page = await (await fetch(`${service.url}/docs`)).text();
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="docs\//);
      expect(body!.trim()).toBe("");
    }
    expect(page).not.toMatch(/\son[a-z]+=/i);
  });

  it("does not take a description URL or configuration from the page's query (swagger-ui's queryConfigEnabled)", async () => {
    const initializer = await (await fetch(`${service.url}/docs/docs-page.js`)).text();
    expect(initializer).not.toMatch(/queryConfigEnabled:\s*true|configUrl/);
    const bundle = await (await fetch(`${service.url}/docs/swagger-ui-bundle.js`)).text();
    expect(bundle).toContain("queryConfigEnabled:!1");
  });

  // The page holds a pasted API key; without frame-ancestors / X-Frame-Options any site can frame it, and without
  // nosniff its files and the API's answers may be sniffed by old browsers as another type.
  it("refuses to be framed by other sites and forbids type sniffing", async () => {
    const response = await fetch(`${service.url}/docs`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const framing = response.headers.get("x-frame-options") ?? "";
    expect(/frame-ancestors\s+('none'|'self')/.test(csp) || /^(deny|sameorigin)$/i.test(framing)).toBe(true);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
