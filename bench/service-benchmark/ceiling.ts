import type { CapturedAnswer } from "./capture.ts";
import { startWorkerProcess } from "./worker-process.ts";

export type CeilingRequest =
  | { kind: "address" }
  | { kind: "register"; pathAndQuery: string; status: number; headers: Array<[string, string]>; bodyBase64: string };

export interface Ceiling {
  /** The bare node:http server's base URL; a registered path answers at the same path and query as on the service. */
  url: string;
  /** The h3 app's base URL, answering the same registered paths. */
  h3Url: string;
  replay(pathAndQuery: string, answer: CapturedAnswer): Promise<void>;
  close(): Promise<void>;
}

/** One ceiling process (ceiling-server.ts, both servers) for the whole run; each route registers its captured answer in it. */
export async function startCeiling(): Promise<Ceiling> {
  const worker = await startWorkerProcess(new URL("./ceiling-server.ts", import.meta.url));
  const { url, h3Url } = await worker.ask<{ url: string; h3Url: string }>(
    { kind: "address" } satisfies CeilingRequest,
    10_000,
  );
  return {
    url,
    h3Url,
    async replay(pathAndQuery, answer) {
      const request: CeilingRequest = {
        kind: "register",
        pathAndQuery,
        status: answer.status,
        headers: answer.headers,
        bodyBase64: answer.body.toString("base64"),
      };
      await worker.ask(request, 10_000);
    },
    close: () => worker.close(),
  };
}
