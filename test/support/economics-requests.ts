import type { Scope } from "../../schemas/vocabularies.ts";
import type { RunningService } from "./service.ts";

/** Request helpers shared by the economics tests. */

/** What the helpers use of a running service (service.ts), so they also serve harnesses that only answer requests. */
type ServiceLike = Pick<RunningService, "createKey" | "request">;

/** GET (or another method) with a bearer key carrying `scopes` (default economics:read). */
export function credentialedClient(service: ServiceLike, scopes: Scope[] = ["economics:read"]) {
  const key = service.createKey(scopes);
  return (path: string, init: RequestInit = {}) =>
    service.request(path, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string> | undefined) },
    });
}

/** The order of the events routes: scheduled date, timed before date-only, time, id. */
export function inEventOrder<T extends { scheduledDate: string; scheduledAt: string | null; id: string }>(
  entries: T[],
): T[] {
  const key = (entry: T) => [
    entry.scheduledDate,
    entry.scheduledAt === null ? "1" : "0",
    entry.scheduledAt ?? "",
    entry.id,
  ];
  return [...entries].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let index = 0; index < ka.length; index++) {
      if (ka[index]! < kb[index]!) return -1;
      if (ka[index]! > kb[index]!) return 1;
    }
    return 0;
  });
}
