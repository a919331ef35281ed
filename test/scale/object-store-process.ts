import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("./object-store-standin.ts", import.meta.url));

export interface ObjectStoreStandin {
  /** The settings a `service` process needs to reach it: the SDK's standard variables. */
  env: Record<string, string>;
  endpoint: string;
  /** Stalls every index download after this many bytes from now on; null lets them through again. */
  stallDownloads(afterBytes: number | null): Promise<void>;
  /** SIGKILL: every connection dies with the process, as when a store's host fails. */
  kill(): Promise<void>;
  /** Starts it again on the same folder and port, objects intact. */
  restart(): Promise<void>;
}

/** The stand-in store (object-store-standin.ts) as a child process on 127.0.0.1, holding `bucket` in `dir`. */
export async function startObjectStoreStandin(dir: string, bucket: string): Promise<ObjectStoreStandin> {
  let child: ChildProcess;
  let port = 0;

  const launch = async () => {
    child = fork(SCRIPT, [], {
      execArgv: ["--import", "tsx"],
      env: { PATH: process.env.PATH ?? "", STANDIN_DIR: dir, STANDIN_BUCKET: bucket, STANDIN_PORT: String(port) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    port = await new Promise<number>((resolve, reject) => {
      child.once("message", (message: { port: number }) => resolve(message.port));
      child.once("exit", (code) => reject(new Error(`the object-store stand-in exited (${code}) before listening`)));
    });
  };
  await launch();
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    env: {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      // Nothing else: with an endpoint named, the service sets path-style requests and checksums only where required
      // (s3rver predates the SDK's default streaming checksums) by itself (cli/config.ts).
    },
    async stallDownloads(afterBytes) {
      const acknowledged = new Promise<void>((resolve) => child.once("message", () => resolve()));
      child.send({ stallAfterBytes: afterBytes });
      await acknowledged;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGKILL");
      await exited;
    },
    restart: launch,
  };
}
