import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFetchSidecar } from "../../cli/ingest/fetch-sidecar.ts";

const dir = mkdtempSync(join(tmpdir(), "fetch-sidecar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A document path whose sidecar holds `text`. */
const withSidecar = (name: string, text: string) => {
  writeFileSync(join(dir, `${name}.fetch.json`), text);
  return join(dir, name);
};

describe("a recording's fetch-time sidecar", () => {
  it("reads an instant with its zone as UTC, and null as unknown", () => {
    expect(
      readFetchSidecar(withSidecar("a.json", '{"fetchedAt":"2026-09-12T06:21:53+02:00","stated":"Date"}')),
    ).toEqual({ fetchedAt: "2026-09-12T04:21:53.000Z", stated: "Date" });
    expect(readFetchSidecar(withSidecar("b.json", '{"fetchedAt":null,"stated":"none"}'))).toEqual({
      fetchedAt: null,
      stated: "none",
    });
    expect(readFetchSidecar(join(dir, "no-sidecar.json"))).toBeNull();
  });

  it("names the sidecar when it is not JSON, not an object, or its time has no zone", () => {
    expect(() => readFetchSidecar(withSidecar("c.json", "{oops"))).toThrow(/c\.json\.fetch\.json: not JSON/);
    expect(() => readFetchSidecar(withSidecar("d.json", "null"))).toThrow(/d\.json\.fetch\.json: not a JSON object/);
    expect(() => readFetchSidecar(withSidecar("e.json", '{"fetchedAt":"2026-09-12T04:21:53"}'))).toThrow(
      /e\.json\.fetch\.json: fetchedAt is not an instant with its zone/,
    );
  });
});
