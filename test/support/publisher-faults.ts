import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { contentTypeOf } from "./publisher-paths.ts";
import type { PublisherStandin, RecordedAnswer } from "./publisher-standin.ts";

/**
 * The faults a publisher can answer ingestion with, each as a switch of the publisher stand-in for one path pattern.
 * Every fault is persistent (a retry meets it again), and each is made of the path's own recorded document where the
 * fault is about the document (cut, compressed, padded), so that only the fault can be what makes it unusable.
 */

/** The ingestion limits the faults are sized against (the run under test must be configured with the same). */
export interface FaultLimits {
  timeoutMs: number;
  maxBytes: number;
}

export interface PublisherFault {
  name: string;
  /**
   * How ingestion should describe the failure: a transport failure by its message, or "document" where the answer
   * arrives whole and the source's adapter must refuse it (its message names the source). Checked so that a cell
   * fails for its fault, not for something else (a 404 from a stand-in that does not know the path).
   */
  refusedAs: RegExp | "document";
  apply(standin: PublisherStandin, pattern: string, limits: FaultLimits): void;
}

const bodyOf = (recorded: RecordedAnswer) => recorded?.body ?? Buffer.alloc(0);
const halfOf = (body: Buffer) => body.subarray(0, Math.floor(body.length / 2));

/**
 * The document cut in the middle. A CSV answer is cut in the middle of its data rows, and one with no rows (the
 * header alone, which is how a publisher answers for a key with no data) is left whole: so that in a source of several
 * documents the cut falls on the data, not on an empty document that would fail the source before the data is read.
 */
function cutInTheMiddle(pattern: string, body: Buffer): Buffer {
  if (!contentTypeOf(pattern).startsWith("text/csv")) return halfOf(body);
  const rowsStart = body.indexOf("\n") + 1;
  if (rowsStart === 0 || rowsStart >= body.length) return body;
  return body.subarray(0, rowsStart + Math.floor((body.length - rowsStart) / 2));
}

/** A failing write (the client has hung up on a body it refused) is expected here, not an error of the stand-in. */
function quietly(response: ServerResponse): ServerResponse {
  response.on("error", () => {});
  response.socket?.on("error", () => {});
  return response;
}

/** The recorded document followed by whitespace up to one byte past the ceiling: still parseable if the ceiling were not enforced. */
function paddedPastCeiling(recorded: RecordedAnswer, maxBytes: number): Buffer {
  const body = bodyOf(recorded);
  return Buffer.concat([body, Buffer.alloc(Math.max(0, maxBytes + 1 - body.length), " ")]);
}

/** An error page of a kind the source does not read: HTML where the source reads JSON, XML, CSV or iCalendar; JSON where it reads HTML. */
function wrongTypeErrorPage(pattern: string): { body: string; contentType: string } {
  if (contentTypeOf(pattern).startsWith("text/html")) {
    return {
      body: JSON.stringify({ status: 503, error: "Service Unavailable", message: "Please try again later." }),
      contentType: "application/json",
    };
  }
  return {
    body:
      "<!DOCTYPE html>\n<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1>" +
      "<p>The server is temporarily unable to service your request.</p></body></html>\n",
    contentType: "text/html; charset=utf-8",
  };
}

/** The publisher's error in the very syntax (and content type) the source reads: a soft error, answered 200. */
function sameTypeErrorDocument(pattern: string): string {
  const type = contentTypeOf(pattern);
  if (type.startsWith("application/json"))
    return JSON.stringify({ error: { code: 503, message: "Service temporarily unavailable" } });
  if (type.startsWith("text/csv")) return "error,message\r\n503,Service temporarily unavailable\r\n";
  if (type.startsWith("text/html"))
    return "<!DOCTYPE html>\n<html><head><title>Maintenance</title></head><body><p>Service temporarily unavailable</p></body></html>\n";
  if (type.includes("xml"))
    return `<?xml version="1.0" encoding="utf-8"?>\n<error><code>503</code><message>Service temporarily unavailable</message></error>\n`;
  return "Service temporarily unavailable\r\n";
}

export const PUBLISHER_FAULTS: readonly PublisherFault[] = [
  { name: "HTTP 500", refusedAs: /answered HTTP 500$/, apply: (standin, pattern) => standin.fail(pattern, 500) },
  {
    name: "no answer within the time-out",
    refusedAs: /did not answer within \d+ ms$/,
    apply: (standin, pattern) => standin.hang(pattern),
  },
  {
    name: "body stalls half-way past the time-out",
    refusedAs: /did not finish within \d+ ms$/,
    apply: (standin, pattern) =>
      standin.respond(pattern, (response, recorded) => {
        const body = bodyOf(recorded);
        quietly(response).writeHead(200, {
          "content-type": contentTypeOf(pattern),
          "content-length": String(body.length),
        });
        response.write(halfOf(body));
      }),
  },
  {
    name: "malformed (gzip bytes without Content-Encoding)",
    refusedAs: "document",
    apply: (standin, pattern) =>
      standin.respond(pattern, (response, recorded) => {
        const body = gzipSync(bodyOf(recorded));
        response
          .writeHead(200, { "content-type": contentTypeOf(pattern), "content-length": String(body.length) })
          .end(body);
      }),
  },
  {
    name: "an error document in the expected syntax, with 200",
    refusedAs: "document",
    apply: (standin, pattern) => standin.replace(pattern, sameTypeErrorDocument(pattern), contentTypeOf(pattern)),
  },
  {
    name: "truncated (cut in the middle, framed as whole)",
    refusedAs: "document",
    apply: (standin, pattern) =>
      standin.respond(pattern, (response, recorded) => {
        const body = cutInTheMiddle(pattern, bodyOf(recorded));
        response
          .writeHead(200, { "content-type": contentTypeOf(pattern), "content-length": String(body.length) })
          .end(body);
      }),
  },
  {
    name: "connection dropped half-way through the body",
    refusedAs: /broke off the answer \(\w+\)$/,
    apply: (standin, pattern) =>
      standin.respond(pattern, (response, recorded) => {
        const body = bodyOf(recorded);
        quietly(response).writeHead(200, {
          "content-type": contentTypeOf(pattern),
          "content-length": String(body.length),
        });
        response.write(halfOf(body), () => response.destroy());
      }),
  },
  {
    name: "empty body (200, 0 bytes)",
    refusedAs: "document",
    apply: (standin, pattern) => standin.replace(pattern, Buffer.alloc(0), contentTypeOf(pattern)),
  },
  {
    name: "oversized, declared by Content-Length",
    refusedAs: /announced \d+ bytes, over the \d+-byte ceiling$/,
    apply: (standin, pattern, limits) =>
      standin.respond(pattern, (response, recorded) => {
        const body = paddedPastCeiling(recorded, limits.maxBytes);
        quietly(response)
          .writeHead(200, { "content-type": contentTypeOf(pattern), "content-length": String(body.length) })
          .end(body);
      }),
  },
  {
    name: "oversized, streamed without Content-Length",
    refusedAs: /sent more than the \d+-byte ceiling$/,
    apply: (standin, pattern, limits) =>
      standin.respond(pattern, (response, recorded) => {
        const body = paddedPastCeiling(recorded, limits.maxBytes);
        quietly(response).writeHead(200, { "content-type": contentTypeOf(pattern) });
        // Several chunks, so that the ceiling has to be enforced while reading and not only against a declared length.
        for (let start = 0; start < body.length; start += 64 * 1024)
          response.write(body.subarray(start, start + 64 * 1024));
        response.end();
      }),
  },
  {
    name: "wrong content type (an error page, with 200)",
    refusedAs: "document",
    apply: (standin, pattern) => {
      const page = wrongTypeErrorPage(pattern);
      standin.replace(pattern, page.body, page.contentType);
    },
  },
];
