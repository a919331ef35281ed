import type Database from "better-sqlite3";

/**
 * The ledger's events cut into id ranges ("shares") that the threads publishing the index claim one at a time: the
 * events thread from the start, the publishing thread once its own half (the observations) is written. Whichever is
 * free takes the next share, so neither waits idle for the other whatever the machine or the data's proportions.
 */
export interface EventShares {
  /** The last id of each share, in id order: share k holds the ids after `lastIds[k - 1]` (after "" for the first), up to this. */
  lastIds: string[];
  /** The next share to claim, counted up by every thread that claims one (shared memory). */
  next: Int32Array<SharedArrayBuffer>;
}

/** An id range of events: those with `after < id <= through`. */
export interface IdRange {
  after: string;
  through: string;
}

/** Enough shares that the last one claimed is short: a thread that finds none left waits for at most that much. */
const SHARE_COUNT = 64;

/** The ledger's events in SHARE_COUNT shares of about as many events each (fewer shares for fewer events). */
export function shareEvents(ledger: Database.Database): EventShares {
  const ids = ledger.prepare("SELECT id FROM events ORDER BY id").pluck().all() as string[];
  const lastIds: string[] = [];
  for (let share = 1; share <= SHARE_COUNT; share++) {
    const last = ids[Math.ceil((share * ids.length) / SHARE_COUNT) - 1];
    if (last !== undefined && last !== lastIds.at(-1)) lastIds.push(last);
  }
  return { lastIds, next: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) };
}

/** Claims shares for this thread, one at a time as it asks for the next, until none is left. */
export function* claimShares(shares: EventShares): Generator<IdRange> {
  for (;;) {
    const share = Atomics.add(shares.next, 0, 1);
    if (share >= shares.lastIds.length) return;
    yield rangeOf(shares, share);
  }
}

/** Leaves no share to claim: a thread that failed ends the other's work on a build that is thrown away. */
export function endClaims(shares: EventShares): void {
  Atomics.store(shares.next, 0, shares.lastIds.length);
}

/** Every share, in id order, claimed or not. */
export function* everyShare(shares: EventShares): Generator<IdRange> {
  for (let share = 0; share < shares.lastIds.length; share++) yield rangeOf(shares, share);
}

function rangeOf({ lastIds }: EventShares, share: number): IdRange {
  return { after: share === 0 ? "" : lastIds[share - 1]!, through: lastIds[share]! };
}
