import { getRequestIP, H3, type H3Event } from "h3";
import { FastResponse } from "srvx";
import type { ApiRequest } from "./api-request.ts";
import type { HttpAnswer } from "./envelope.ts";
import type { Pipeline } from "./pipeline.ts";
import { SplicedBody } from "./spliced-body.ts";

/** The h3 app: every request goes to the pipeline, which routes it itself. */
export function createH3App(pipeline: Pipeline): H3 {
  const app = new H3({
    silent: true,
    // Failures h3 raises itself (before the handler: a malformed URL), shaped, counted and headed like every answer.
    onError: (error, event) => {
      const code = error.status === 404 ? "NOT_FOUND" : error.status < 500 ? "BAD_REQUEST" : "INTERNAL";
      const request = { headers: event.req.headers, peerAddress: getRequestIP(event), method: event.req.method };
      return toResponse(pipeline.answerUnreadable(request, code, error));
    },
  });
  app.all("/**", (event) => {
    const answer = pipeline.answer(apiRequestOf(event));
    return answer instanceof Promise ? answer.then(toResponse) : toResponse(answer);
  });
  return app;
}

function apiRequestOf(event: H3Event): ApiRequest {
  return {
    method: event.req.method,
    pathname: event.url.pathname,
    search: event.url.search,
    headers: event.req.headers,
    peerAddress: getRequestIP(event),
  };
}

/** The pipeline's answer as the Response srvx writes. */
export function toResponse(answer: HttpAnswer): Response {
  const body = answer.body instanceof SplicedBody ? answer.body.joined() : answer.body;
  return new FastResponse(body, { status: answer.status, headers: answer.headers });
}
