import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claimShares, endClaims, everyShare, type IdRange, shareEvents } from "../../cli/ingest/index/event-shares.ts";

/** A ledger holding only the column the shares are cut on. */
function ledgerWithIds(ids: readonly string[]): Database.Database {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE events (id TEXT PRIMARY KEY)");
  const insert = db.prepare("INSERT INTO events VALUES (?)");
  for (const id of ids) insert.run(id);
  return db;
}

// ASCII ids (as the ledger's are), so that JavaScript orders them as SQLite does.
const inRange = (id: string, { after, through }: IdRange) => id > after && id <= through;

describe("the shares of events the publishing threads claim", () => {
  it("hold every event exactly once, however two claimants interleave", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 6 }), { maxLength: 300 }),
        fc.array(fc.boolean(), { maxLength: 200 }),
        (ids, turns) => {
          const shares = shareEvents(ledgerWithIds(ids));
          // Two threads claiming from one counter: whose turn it is decides who gets the next share.
          const claimants = [claimShares(shares), claimShares(shares)];
          const claimed: IdRange[][] = [[], []];
          let turn = 0;
          for (;;) {
            const who = turns[turn++] ? 1 : 0;
            const next = claimants[who]!.next();
            if (next.done) break;
            claimed[who]!.push(next.value);
          }
          // The other claimant finds none left.
          expect(claimants.map((claimant) => claimant.next().done)).toEqual([true, true]);
          const ranges = claimed.flat();
          for (const id of ids) expect(ranges.filter((range) => inRange(id, range))).toHaveLength(1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("are at most 64, of about as many events each, and none for no events", () => {
    const ids = Array.from({ length: 100_000 }, (_, n) => `evt_${n.toString(16).padStart(6, "0")}`);
    const shares = shareEvents(ledgerWithIds(ids));
    const sizes = [...claimShares(shares)].map((range) => ids.filter((id) => inRange(id, range)).length);
    expect(sizes).toHaveLength(64);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect([...claimShares(shareEvents(ledgerWithIds([])))]).toEqual([]);
  });

  it("are all listed in id order for the copy, claimed or not, and none is left to claim once a thread ended the claims", () => {
    const ids = Array.from({ length: 1_000 }, (_, n) => `evt_${n.toString(16).padStart(4, "0")}`);
    const shares = shareEvents(ledgerWithIds(ids));
    const claimant = claimShares(shares);
    claimant.next();
    endClaims(shares);
    expect(claimant.next().done).toBe(true);
    expect([...claimShares(shares)]).toEqual([]);
    const listed = [...everyShare(shares)];
    expect(listed).toHaveLength(64);
    expect(listed.map((range) => range.after)).toEqual(["", ...listed.slice(0, -1).map((range) => range.through)]);
    expect(listed.at(-1)!.through).toBe(ids.at(-1));
  });
});
