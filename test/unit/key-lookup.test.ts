import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeKeyFile } from "../../cli/keys/key-file-writer.ts";
import { newKey } from "../../cli/keys/new-key.ts";
import { createKeyLookup, KEY_FILE_RECHECK_MS } from "../../server/keys/key-file.ts";

const dirs: string[] = [];
const keysFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "key-lookup-"));
  dirs.push(dir);
  return join(dir, "keys.json");
};
const key = () =>
  newKey({ name: "test", environment: "test", scopes: ["weather:read"], createdAt: "2026-11-23T00:00:00.000Z" }).record;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the server's key lookup", () => {
  it("finds a key written after the file was last looked at, at its first request", () => {
    const path = keysFile();
    const first = key();
    writeKeyFile(path, { keys: [first] });
    const lookup = createKeyLookup(path);
    expect(lookup(first.id)).toEqual(first);
    const second = key();
    writeKeyFile(path, { keys: [first, second] });
    expect(lookup(second.id)).toEqual(second);
  });

  it("applies a revocation within its recheck period", async () => {
    const path = keysFile();
    const record = key();
    writeKeyFile(path, { keys: [record] });
    const lookup = createKeyLookup(path);
    expect(lookup(record.id)?.revokedAt).toBeNull();
    writeKeyFile(path, { keys: [{ ...record, revokedAt: "2026-11-23T00:00:01.000Z" }] });
    await pause(KEY_FILE_RECHECK_MS * 2 + 10);
    expect(lookup(record.id)?.revokedAt).toBe("2026-11-23T00:00:01.000Z");
  });

  it("fails at every call while the file cannot be read, and recovers within its recheck period once it can", async () => {
    const path = keysFile();
    const record = key();
    writeFileSync(path, "{ not json");
    const lookup = createKeyLookup(path);
    expect(() => lookup(record.id)).toThrow();
    expect(() => lookup(record.id)).toThrow();
    writeKeyFile(path, { keys: [record] });
    await pause(KEY_FILE_RECHECK_MS * 2 + 10);
    expect(lookup(record.id)).toEqual(record);
  });

  it("fails, as for a file it cannot read, when an entry is damaged, naming the file and the entry", () => {
    const path = keysFile();
    const record = key();
    writeFileSync(path, JSON.stringify({ keys: [record, { ...record, id: "fedcba9876543210", scopes: undefined }] }));
    const lookup = createKeyLookup(path);
    expect(() => lookup(record.id)).toThrow(
      `key file ${path}: entry 2 (id fedcba9876543210) has scopes that are not a non-empty list of weather:read, economics:read, operator`,
    );
  });

  it("fails when an id is not one a secret can carry (16 lower-case hexadecimal digits)", () => {
    const path = keysFile();
    for (const id of ["a b", "AAAAAAAAAAAAAAAA", "0123456789abcdef0"]) {
      writeFileSync(path, JSON.stringify({ keys: [{ ...key(), id }] }));
      expect(() => createKeyLookup(path)(id)).toThrow(
        `key file ${path}: entry 1 (id ${id}) has an id that is not 16 hexadecimal digits`,
      );
    }
  });

  it("fails when two entries share an id: a revocation written to one would leave the other working", () => {
    const path = keysFile();
    const record = key();
    writeFileSync(
      path,
      JSON.stringify({ keys: [{ ...record, revokedAt: "2026-11-23T00:00:01.000Z" }, key(), record] }),
    );
    expect(() => createKeyLookup(path)(record.id)).toThrow(
      `key file ${path}: entries 1 and 3 have the same id ${record.id}`,
    );
  });

  it("fails when a time is not a time, or revokedAt is missing (the server would take it as revoked, listings as active)", () => {
    const path = keysFile();
    const record = key();
    const { revokedAt: _, ...withoutRevokedAt } = record;
    const cases: [object, string][] = [
      [withoutRevokedAt, "has a revokedAt that is neither null nor an ISO 8601 time"],
      [{ ...record, revokedAt: "yesterday" }, "has a revokedAt that is neither null nor an ISO 8601 time"],
      [{ ...record, createdAt: "x" }, "has a createdAt that is not an ISO 8601 time"],
      [{ ...record, scopes: [] }, "has scopes that are not a non-empty list of weather:read, economics:read, operator"],
    ];
    for (const [entry, problem] of cases) {
      writeFileSync(path, JSON.stringify({ keys: [entry] }));
      expect(() => createKeyLookup(path)(record.id)).toThrow(`key file ${path}: entry 1 (id ${record.id}) ${problem}`);
    }
  });
});
