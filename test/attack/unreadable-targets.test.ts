import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../support/service.ts";

/**
 * Issue 39, item 6: `*?a=b` as the request target got a bare `400 Bad Request` with no request id and no body (23 of
 * the fuzz's answers): Node parses it, and srvx refused it before the pipeline could. Every request Node's parser or
 * the router refuses gets the contract's error body with its request id.
 */

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and splits what comes back into answers until the server closes the connection. */
async function exchange(service: RunningService, ...writes: string[]): Promise<Answer[]> {
  return answersIn(await received(service, ...writes));
}

/** Sends raw bytes, each once the answer to the one before is whole; what came back when the server closed. */
function received(service: RunningService, ...writes: string[]): Promise<string> {
  const { port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      // The next write goes once the answer to the one before is whole.
      if (writes.length > 0 && answersIn(received).length > 0) socket.write(writes.shift()!);
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.on("connect", () => socket.write(writes.shift()!));
  });
}

function answersIn(text: string): Answer[] {
  const answers: Answer[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd === -1) return answers;
    const [statusLine = "", ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
    );
    const length = Number(headers["content-length"] ?? 0);
    if (rest.length < headEnd + 4 + length) return answers;
    answers.push({
      status: Number(statusLine.split(" ")[1]),
      headers,
      body: rest.slice(headEnd + 4, headEnd + 4 + length),
    });
    rest = rest.slice(headEnd + 4 + length);
  }
}

function expectContractError(answer: Answer | undefined, code: string) {
  expect(answer?.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer?.headers["content-type"]).toMatch(/^application\/json/);
  expect(JSON.parse(answer!.body)).toEqual({
    error: { code, message: expect.any(String), requestId: answer!.headers["x-request-id"] },
  });
}

describe("request targets no route can be read from", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it.each([
    ["GET", "*?a=b"],
    ["OPTIONS", "*?a=b"],
    ["GET", "*?"],
    ["GET", "?a=b"],
    ["GET", "api/v1/economics/series"],
    ["POST", "*?a=b"],
    ["GET", "ftp://example.com/api/v1/economics/series"],
  ])("%s %s gets the contract's BAD_REQUEST", async (method, target) => {
    const [answer] = await exchange(
      service,
      `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(answer?.status).toBe(400);
    expectContractError(answer, "BAD_REQUEST");
  });

  it("the asterisk alone is no path the service publishes: the contract's NOT_FOUND", async () => {
    for (const method of ["GET", "OPTIONS"]) {
      const [answer] = await exchange(service, `${method} * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(answer?.status).toBe(404);
      expectContractError(answer, "NOT_FOUND");
    }
  });

  it("a HEAD to such a target gets the error's headers without a body", async () => {
    const text = await received(service, "HEAD *?a=b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 400 .*\r\n/);
    expect(text).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
    expect(text.endsWith("\r\n\r\n")).toBe(true);
  });

  it("a request Node cannot parse, after an answered one on the same connection, still gets the contract's error", async () => {
    const answers = await exchange(
      service,
      "GET /api/v1/economics/series HTTP/1.1\r\nHost: localhost\r\n\r\n",
      "GET /api/v1/economics series HTTP/1.1\r\nHost: localhost\r\n\r\n",
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 400]);
    expectContractError(answers[1], "BAD_REQUEST");
  });
});
