import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { Counter, type Registry } from "prom-client";
import { DATA_FILES } from "../../schemas/data-files.ts";
import {
  GENERATION_FILES,
  type GenerationFile,
  type IndexManifest,
  MANIFEST_MAX_BYTES,
  MANIFEST_NAME,
  parseIndexManifest,
} from "../../schemas/index-manifest.ts";
import type { IndexFollowingConfig } from "../config.ts";
import { replaceAtomically } from "../files/atomic-write.ts";
import { digestFile, digesting } from "../files/file-digest.ts";
import { fileVersion } from "../files/reloading-file.ts";
import { flushLog, type Logger } from "../observability/logger.ts";
import { readRegistryFile } from "../registry/registry-file.ts";
import { publicationFacts } from "./index-storage.ts";
import {
  createObjectStoreClient,
  downloadPublishedFile,
  objectKey,
  objectUrl,
  storeErrorFacts,
  storeStatusOf,
} from "./object-store.ts";

const POLL_OUTCOMES = ["unchanged", "current", "installed", "absent", "failed"] as const;
type PollOutcome = (typeof POLL_OUTCOMES)[number];

export type IndexFollower = ReturnType<typeof createIndexFollower>;

export interface IndexFollowerOptions extends IndexFollowingConfig {
  /** The follower's own S3 client unless one is given (tests); destroyed when it stops. */
  client?: S3Client;
  dataDir: string;
  logger: Logger;
  /** A download that receives nothing for this long is abandoned. */
  idleTimeoutMs?: number;
  /** The app's metrics registry, where polls are counted by outcome. */
  metrics?: Registry;
}

const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const MANIFEST_TIMEOUT_MS = 15_000;
const DOWNLOAD_SUFFIX = ".download";

type FoundManifest = { manifest: IndexManifest; etag: string | undefined };

/**
 * `service serve --index-from`: polls the manifest with If-None-Match, downloads a new generation's files beside the
 * live ones while hashing them, and only when all match the manifest renames them over the live ones in one synchronous
 * step: the server picks them up by file identity (reloading-file.ts). Anything short of that leaves the current files
 * serving, logged and counted.
 */
export function createIndexFollower(options: IndexFollowerOptions) {
  const { source, dataDir, logger } = options;
  const client = options.client ?? createObjectStoreClient(source);
  const manifestUrl = objectUrl(source, MANIFEST_NAME);
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const stopping = new AbortController();
  const localFiles = new Map<GenerationFile, { version: string; sha256: string }>();
  // The manifest whose files are installed, with its ETag: kept only once they are, so a failed download is retried.
  let installed: FoundManifest | null = null;
  let absenceReported = false;
  let queue: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const countPoll = pollCounter(options.metrics);
  mkdirSync(dataDir, { recursive: true });
  removeAbandonedDownloads(dataDir);

  async function poll(): Promise<PollOutcome> {
    if (stopping.signal.aborted) return "failed";
    const outcome = await pollStore();
    // A poll cut short by the process stopping is no failure of the store.
    if (!stopping.signal.aborted) countPoll(outcome);
    // Swaps and failures, which operators watch for, go out now, not with the next batch.
    if (outcome !== "unchanged") flushLog(logger);
    return outcome;
  }

  async function pollStore(): Promise<PollOutcome> {
    try {
      const found = await readManifest();
      if (found === "unchanged") {
        logger.debug({ source: manifestUrl }, "index manifest unchanged");
        return "unchanged";
      }
      if (found === "absent") {
        if (!absenceReported) logger.info({ source: manifestUrl }, "no index generation published yet");
        absenceReported = true;
        return "absent";
      }
      absenceReported = false;
      return await install(found.manifest, found.etag);
    } catch (error) {
      if (stopping.signal.aborted) return "failed";
      const generation = installed?.manifest.publishedAt ?? null;
      logger.warn(
        { source: manifestUrl, generation, ...storeErrorFacts(error) },
        "index generation not taken: the current index stays",
      );
      return "failed";
    }
  }

  async function readManifest(): Promise<"unchanged" | "absent" | FoundManifest> {
    try {
      const answer = await client.send(
        new GetObjectCommand({
          Bucket: source.bucket,
          Key: objectKey(source, MANIFEST_NAME),
          IfNoneMatch: installed?.etag,
        }),
        { abortSignal: AbortSignal.any([stopping.signal, AbortSignal.timeout(MANIFEST_TIMEOUT_MS)]) },
      );
      const body = answer.Body as Readable;
      if ((answer.ContentLength ?? 0) > MANIFEST_MAX_BYTES) {
        body.destroy();
        throw new Error(`the index manifest is ${answer.ContentLength} bytes, more than a manifest can be`);
      }
      // Counted as it comes too, for a store that sends no length or more than it claims.
      const text = (await buffer(digesting(MANIFEST_MAX_BYTES).stage(body))).toString("utf8");
      return { manifest: parseIndexManifest(text), etag: answer.ETag };
    } catch (error) {
      const status = storeStatusOf(error);
      if (status === 304) return "unchanged";
      if (status === 404) return "absent";
      throw error;
    }
  }

  async function install(manifest: IndexManifest, etag: string | undefined): Promise<PollOutcome> {
    const wanted: GenerationFile[] = [];
    for (const file of GENERATION_FILES) if ((await localHash(file)) !== manifest.files[file].sha256) wanted.push(file);
    if (wanted.length === 0) {
      if (installed?.manifest.generation !== manifest.generation)
        logger.info({ generation: manifest.publishedAt }, "index generation already in the data directory");
      installed = { manifest, etag };
      return "current";
    }
    const started = performance.now();
    const temporary = (file: GenerationFile) => join(dataDir, `${DATA_FILES[file]}.${process.pid}${DOWNLOAD_SUFFIX}`);
    try {
      for (const file of wanted)
        await downloadPublishedFile(client, source, manifest.files[file], temporary(file), {
          idleTimeoutMs,
          signal: stopping.signal,
        });
      for (const file of wanted) assertServable(file, temporary(file));
      // One synchronous step: no request reads the new index with the old registry.
      for (const file of wanted) {
        const live = join(dataDir, DATA_FILES[file]);
        replaceAtomically(temporary(file), live);
        localFiles.set(file, { version: fileVersion(live), sha256: manifest.files[file].sha256 });
      }
    } finally {
      for (const file of wanted) rmSync(temporary(file), { force: true });
    }
    installed = { manifest, etag };
    logger.info(
      {
        generation: manifest.publishedAt,
        files: wanted,
        bytes: wanted.reduce((sum, file) => sum + manifest.files[file].bytes, 0),
        downloadMs: Math.round(performance.now() - started),
      },
      "index generation installed",
    );
    return "installed";
  }

  /** A live file's hash, computed again only when the file was replaced since. */
  async function localHash(file: GenerationFile): Promise<string | null> {
    const live = join(dataDir, DATA_FILES[file]);
    const version = fileVersion(live);
    if (version === "absent") return null;
    const known = localFiles.get(file);
    if (known?.version === version) return known.sha256;
    const { sha256 } = await digestFile(live);
    localFiles.set(file, { version, sha256 });
    return sha256;
  }

  /** Polls now, after any poll under way. */
  function pollOnce(): Promise<PollOutcome> {
    const next = queue.then(poll);
    queue = next;
    return next;
  }

  return {
    /** The generation installed, null before the first. */
    generation: () => installed?.manifest.generation ?? null,
    pollOnce,
    /** Polls now and then every interval, until stopped. */
    start() {
      const loop = async () => {
        await pollOnce();
        if (stopping.signal.aborted) return;
        // Polling alone never keeps the process alive; the server does.
        timer = setTimeout(loop, options.pollIntervalMs).unref();
      };
      void loop();
    },
    /** Ends polling; a download under way is abandoned and its partial file removed. */
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await queue;
      client.destroy();
    },
  };
}

/** Every outcome exposed from the start, so a rate over one never seen is 0. */
function pollCounter(registry: Registry | undefined): (outcome: PollOutcome) => void {
  if (!registry) return () => {};
  const polls = new Counter({
    name: "service_index_polls_total",
    help: "Polls of the object-store manifest by outcome: unchanged (304), current (files already here), installed (new generation swapped in), absent (nothing published yet), failed (store unreachable or a download cut short, stalled or not matching its hash; the current index stays).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of POLL_OUTCOMES) polls.inc({ outcome }, 0);
  return (outcome) => polls.inc({ outcome });
}

/** Partial downloads of a killed process: disk to reclaim. */
function removeAbandonedDownloads(dataDir: string): void {
  const liveNames: string[] = GENERATION_FILES.map((file) => DATA_FILES[file]);
  for (const name of readdirSync(dataDir)) {
    if (name.endsWith(DOWNLOAD_SUFFIX) && liveNames.some((live) => name.startsWith(`${live}.`)))
      rmSync(join(dataDir, name), { force: true });
  }
}

/**
 * A downloaded file is swapped in only when the server can read it (a registry's JSON, an index with its publication
 * facts): a matching hash proves the bytes are the manifest's, not that they are servable.
 */
function assertServable(file: GenerationFile, path: string): void {
  if (file === "registry") return void readRegistryFile(path);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    publicationFacts(db);
  } finally {
    db.close();
  }
}
