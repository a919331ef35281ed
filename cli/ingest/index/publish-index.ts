import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DATA_FILES } from "../../../schemas/data-files.ts";
import { INDEX_DDL, type PublicationFacts, type RebuildFacts } from "../../../schemas/index-ddl.ts";
import type { BuiltRegistry, Registry } from "../../../schemas/registry.ts";
import { replaceAtomically, UNFINISHED_WRITE_SUFFIX } from "../../../server/files/atomic-write.ts";
import { publicationFacts } from "../../../server/storage/index-storage.ts";
import { startWorker } from "../../../server/threads/start-worker.ts";
import { removeAbandonedFiles, writerFile } from "../../abandoned-files.ts";
import { stageRegistry } from "../../registry/build-registry.ts";
import type { Store } from "../ledger/store.ts";
import { type EventShares, shareEvents } from "./event-shares.ts";
import { stampPublicationTimes, writeServedObservations } from "./index-observations.ts";
import { writeSourceChecks } from "./publish-checks.ts";
import {
  copyEventsInIdOrder,
  type EventsFileRequest,
  mergeEarliestReleases,
  writeEventsFile,
} from "./publish-events.ts";
import { writeNews } from "./publish-news.ts";

/**
 * Builds `index.sqlite` beside the live file, complete and closed, then renames it over the live one,
 * so the server never reads a half-written index. The registry it was built with goes out with it, renamed in the same
 * synchronous step (the server looks at both files at the same moments): one generation, as a follower of object
 * storage installs it. Returns the path of the published index.
 */
export async function publishIndex(
  store: Store,
  registry: BuiltRegistry,
  dataDir: string,
  facts: RebuildFacts,
): Promise<string> {
  const live = join(dataDir, DATA_FILES.index);
  const building = writerFile(live, "building");
  const eventFiles = { thread: writerFile(live, "events"), main: writerFile(live, "main-events") };
  // Half-built indexes of killed runs: the server never reads them, so they are only disk to reclaim. A run publishes
  // under the ingestion lock, so no other build can be under way.
  for (const suffix of ["building", "events", "main-events"]) removeAbandonedFiles(live, suffix, "none");
  // A registry staged by a run killed between its two renames.
  removeAbandonedFiles(join(dataDir, DATA_FILES.registry), UNFINISHED_WRITE_SUFFIX, "none");
  const shares = shareEvents(store.db);
  const events = writeEventsOnThread({ storePath: store.db.name, path: eventFiles.thread, registry, shares });
  const index = new Database(building);
  try {
    await buildIndex(index, store, registry, facts, { written: events.written, files: eventFiles, shares });
    index.close();
    const staged = stageRegistry(registry, dataDir);
    try {
      replaceAtomically(building, live);
    } catch (error) {
      staged.discard();
      throw error;
    }
    staged.commit();
  } catch (error) {
    // A build that failed (a full disk) leaves nothing behind: the live index stays, and so does the disk space.
    if (index.open) index.close();
    rmSync(building, { force: true });
    throw error;
  } finally {
    await events.stop();
    for (const file of Object.values(eventFiles)) rmSync(file, { force: true });
  }
  return live;
}

/** The events: the thread's answer, the files both threads write them to, and the shares they claim (event-shares.ts). */
interface EventsOfBuild {
  written: Promise<Map<string, string>>;
  files: { thread: string; main: string };
  shares: EventShares;
}

/**
 * The observations are written here while a worker thread writes the events into a file of their own
 * (publish-events.ts); then this thread writes the shares of events the worker has not claimed yet into another, and
 * both are copied in, in id order. The build is thrown away on any failure and synced whole before its rename
 * (replaceAtomically), so it is written without a journal or syncs of its own.
 */
async function buildIndex(
  index: Database.Database,
  store: Store,
  registry: Registry,
  facts: RebuildFacts,
  events: EventsOfBuild,
): Promise<void> {
  index.pragma("journal_mode = OFF");
  index.pragma("synchronous = OFF");
  index.exec(INDEX_DDL);
  index.prepare("ATTACH DATABASE ? AS ledger").run(store.db.name);
  index.transaction(() => writeServedObservations(index, registry))();
  const ownReleases = writeEventsFile({
    storePath: store.db.name,
    path: events.files.main,
    registry,
    shares: events.shares,
  });
  const releasedAt = mergeEarliestReleases(await events.written, ownReleases);
  index.prepare("ATTACH DATABASE ? AS thread_events").run(events.files.thread);
  index.prepare("ATTACH DATABASE ? AS main_events").run(events.files.main);
  index.transaction(() => {
    copyEventsInIdOrder(index, events.shares, ["thread_events", "main_events"]);
    stampPublicationTimes(index, releasedAt);
    writeSourceChecks(index, store);
    writeNews(index, store, registry);
    const insertFact = index.prepare("INSERT INTO publication (key, value) VALUES (?, ?)");
    const rebuilt: PublicationFacts = { ...facts, dataRebuiltAt: facts.publishedAt };
    for (const [key, value] of Object.entries(rebuilt)) insertFact.run(key, value);
  })();
  for (const schema of ["thread_events", "main_events", "ledger"]) index.exec(`DETACH DATABASE ${schema}`);
  index.pragma("journal_mode = DELETE");
}

/** The events thread (events-worker.ts): `written` settles with its answer or its failure, `stop` ends it early. */
function writeEventsOnThread(request: EventsFileRequest): {
  written: Promise<Map<string, string>>;
  stop: () => Promise<void>;
} {
  const thread = startWorker(import.meta.url, "events-worker", { workerData: request });
  const written = new Promise<Map<string, string>>((resolve, reject) => {
    thread.once("message", resolve);
    thread.once("error", reject);
    thread.once("exit", (code) =>
      reject(new Error(`the thread writing the events stopped (exit code ${code}) before it answered`)),
    );
  });
  // A build that fails before it waits for the events still stops the thread; its own failure is the one reported.
  written.catch(() => {});
  return { written, stop: async () => void (await thread.terminate()) };
}

/** A fact the live index states, or null when there is no readable index or it states none. */
export function publishedFact(dataDir: string, key: keyof PublicationFacts): string | null {
  const live = join(dataDir, DATA_FILES.index);
  if (!existsSync(live)) return null;
  try {
    const index = new Database(live, { readonly: true, fileMustExist: true });
    try {
      return publicationFacts(index)[key] ?? null;
    } finally {
      index.close();
    }
  } catch {
    return null;
  }
}
