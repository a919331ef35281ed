import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newKey } from "../../cli/keys/new-key.ts";
import { parseTable } from "../support/parse-table.ts";
import { runCli } from "../support/run-cli.ts";

describe("keys list", () => {
  const dir = mkdtempSync(join(tmpdir(), "keys-list-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const key = (name: string, scopes: ("weather:read" | "economics:read" | "operator")[], environment: string) =>
    newKey({ name, environment, scopes, createdAt: "2026-11-21T09:30:00.000Z" }).record;
  const keys = [
    key("dashboard of the finance team, Frankfurt office", ["weather:read", "economics:read", "operator"], "preview"),
    key("unnamed", ["weather:read"], "development"),
    { ...key("old", ["economics:read"], "production"), revokedAt: "2026-11-22T10:00:00.000Z" },
  ];
  writeFileSync(join(dir, "keys.json"), JSON.stringify({ keys }));

  it("is an aligned table with a header row, 80 columns wide off a terminal and as wide as COLUMNS says", () => {
    const expected = keys.map((stored) => ({
      id: stored.id,
      state: stored.revokedAt ? "revoked" : "active",
      environment: stored.environment,
      scopes: stored.scopes.join(", "),
      name: stored.name,
      created: stored.createdAt,
      revoked: stored.revokedAt ?? "",
    }));
    for (const [width, leftOut] of [
      [80, ["created", "revoked"]],
      [100, ["created", "revoked"]],
      [200, []],
    ] as const) {
      const result = runCli(["keys", "list", "--data-dir", dir], width === 80 ? {} : { COLUMNS: String(width) });
      expect(result.status, result.stderr).toBe(0);
      for (const line of result.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(width);
      const table = parseTable(result.stdout);
      expect(table.columns).toEqual(
        ["id", "state", "environment", "scopes", "name", "created", "revoked"].filter(
          (column) => !(leftOut as readonly string[]).includes(column),
        ),
      );
      expect(table.rows).toEqual(
        expected.map((row) => Object.fromEntries(table.columns.map((column) => [column, row[column as "id"]]))),
      );
      expect(table.notes.join(" ")).toBe(
        leftOut.length > 0 ? `left out to fit ${width} columns: ${leftOut.join(", ")} (COLUMNS=N sets the width)` : "",
      );
    }
  });
});
