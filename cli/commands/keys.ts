import { type Command, InvalidArgumentError } from "commander";
import { SCOPES, type Scope } from "../../schemas/vocabularies.ts";
import { UNFINISHED_WRITE_SUFFIX } from "../../server/files/atomic-write.ts";
import { KEY_ID_PATTERN, type KeyFile } from "../../server/keys/api-keys.ts";
import { removeAbandonedFiles } from "../abandoned-files.ts";
import { environmentFrom } from "../config.ts";
import { dataDirFrom, keysFileFrom, usableKeysFile } from "../file-locations.ts";
import { newKey } from "../keys/new-key.ts";
import { writeResult } from "../output-errors.ts";
import { EXIT_CODES } from "../usage.ts";

function parseScopes(raw: string): Scope[] {
  const scopes = raw
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`scopes must be a comma list of ${SCOPES.join(", ")}`);
  }
  return [...new Set(scopes)] as Scope[];
}

function parseName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw new InvalidArgumentError('the name must not be empty (leave --name out for "unnamed")');
  return name;
}

/** An id no key can have is a mistyped argument (usage), not a key that is missing. */
function parseKeyId(raw: string): string {
  if (!KEY_ID_PATTERN.test(raw))
    throw new InvalidArgumentError("a key id is 16 hexadecimal digits, as keys list shows it");
  return raw;
}

/**
 * The key-file writer, loaded by the commands that change keys only: it loads proper-lockfile, whose signal-exit
 * handlers replace Node's default SIGINT with one that waits for the event loop, so Ctrl-C would not stop a
 * synchronous archive replay or gazetteer build of another command until it had finished (and published).
 */
const keyFileWriter = () => import("../keys/key-file-writer.ts");

/** A key file that cannot be read or written is named in the failure, whatever the underlying error says. */
async function onKeyFile<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.includes(path) ? message : `key file ${path}: ${message}`);
  }
}

type KeyFileChange<T> = (file: KeyFile) => { file: KeyFile; result: T } | { file: null; result: T };

/**
 * Changes the key file under its lock (updateKeyFile), then removes what `keys` commands killed mid-write left beside
 * it (`keys.json.<pid>.tmp`): nothing else would, since every command has another pid. A running command's file is
 * kept.
 */
async function changeKeyFile<T>(path: string, change: KeyFileChange<T>): Promise<T> {
  const { updateKeyFile } = await keyFileWriter();
  const result = await onKeyFile(path, () => updateKeyFile(path, change));
  removeAbandonedFiles(path, UNFINISHED_WRITE_SUFFIX, "live-writers");
  return result;
}

/**
 * Revokes the key of this id in the file, from now (a key already revoked keeps its time); false when there is none.
 */
function revoke(file: KeyFile, id: string): boolean {
  const key = file.keys.find((candidate) => candidate.id === id);
  if (!key) return false;
  if (!key.revokedAt) key.revokedAt = new Date().toISOString();
  return true;
}

export function registerKeysCommand(program: Command, env: NodeJS.ProcessEnv): void {
  const keys = program
    .command("keys")
    .description("Create, list and revoke API keys (only their hashes are stored)")
    .option("--data-dir <dir>", "data directory holding keys.json (env SERVICE_DATA_DIR, default ./var)");
  const keysFile = () =>
    usableKeysFile(env, keysFileFrom(env, dataDirFrom(env, keys.opts<{ dataDir?: string }>().dataDir)));

  keys
    .command("create")
    .description("Create a key; its secret is printed once, as the last line of stdout")
    .requiredOption("--scopes <list>", `comma list of ${SCOPES.join(", ")}`, parseScopes)
    .option("--env <name>", "environment the key is valid in (env SERVICE_ENV, default development)")
    .option("--name <label>", "a label to recognise the key by", parseName, "unnamed")
    .action(async (options: { scopes: Scope[]; env?: string; name: string }) => {
      const { record, secret } = newKey({
        name: options.name,
        environment: environmentFrom(env, options.env),
        scopes: options.scopes,
        createdAt: new Date().toISOString(),
      });
      const path = keysFile();
      await changeKeyFile(path, (file) => ({ file: { keys: [...file.keys, record] }, result: undefined }));
      const failure = await writeResult(
        `created key ${record.id} (${record.name}) for environment ${record.environment} with scopes ${record.scopes.join(",")}\n` +
          "store this secret now; it is not shown again:\n" +
          `${secret}\n`,
      );
      if (failure) {
        // Nobody has the secret, and it is shown nowhere else: the key is revoked (kept, so `keys list` shows what
        // happened).
        await changeKeyFile(path, (file) => ({ file, result: revoke(file, record.id) }));
        process.stderr.write(
          `error: the secret of key ${record.id} could not be written (${failure.message}), so the key is revoked: create another\n`,
        );
        process.exitCode = EXIT_CODES.failure;
      }
    });

  keys
    .command("list")
    .description("List keys as a table fitted to the terminal (COLUMNS overrides its width), never their secrets")
    .action(async () => {
      const path = keysFile();
      const { readKeyFile } = await import("../../server/keys/key-file.ts");
      const listed = (await onKeyFile(path, () => readKeyFile(path))).keys;
      if (listed.length === 0) return void process.stdout.write("no keys\n");
      const { leftOutNote, renderFittedTable, terminalWidth } = await import("../terminal-table.ts");
      const width = terminalWidth(env, process.stdout);
      const fitted = renderFittedTable(
        {
          columns: [
            { name: "id" },
            { name: "state" },
            { name: "environment" },
            // A space after each comma lets the column wrap between scopes, never inside one.
            { name: "scopes", wraps: true, narrowest: 0 },
            { name: "name", wraps: true },
            { name: "created" },
            { name: "revoked" },
          ],
          rows: listed.map((key) => [
            key.id,
            key.revokedAt ? "revoked" : "active",
            key.environment,
            key.scopes.join(", "),
            key.name,
            key.createdAt,
            key.revokedAt ?? "",
          ]),
          keep: ["id", "state", "scopes", "environment", "name", "created", "revoked"],
        },
        width,
      );
      const note = leftOutNote(fitted, width);
      process.stdout.write(fitted.text + (note ? `${note}\n` : ""));
    });

  keys
    .command("revoke")
    .description("Revoke a key by id; it stops working at once")
    .argument("<id>", "key id as shown by keys list", parseKeyId)
    .action(async (id: string) => {
      const path = keysFile();
      const found = await changeKeyFile(path, (file) =>
        revoke(file, id) ? { file, result: true } : { file: null, result: false },
      );
      // Not a usage error: the command was right, the key is not there (exit 1, as for any failure).
      if (!found) {
        process.stderr.write(`error: no key has id ${id}\n`);
        process.exitCode = EXIT_CODES.failure;
        return;
      }
      process.stdout.write(`revoked key ${id}\n`);
    });
}
