import { createHook } from "node:async_hooks";

let keptTickObject: object | null = null;

/**
 * Keeps one of Node's own tick objects for the life of the process, so that every `process.nextTick` stays on V8's
 * fast path (README, Performance).
 *
 * `nextTick` builds `{[async_id_symbol], [trigger_async_id_symbol], callback, args}` per call. Its computed keys are
 * defined through inline caches that remember the maps the object passes through. V8 keeps such maps only while some
 * object has them, so a full collection at a moment when no tick is queued (an idle server, a pause between loads)
 * frees them, and the next `nextTick` makes new ones. After a few such collections the caches have seen too many maps
 * and go megamorphic: each `nextTick` then builds its object in V8's runtime, for as long as the process lives. Serving
 * processes of one build ran at 66-81 or at 92-101 µs a request depending on it. One live tick object holds its map
 * and, through the maps' back pointers, the whole chain, so the caches stay monomorphic.
 *
 * The object is caught as the resource of an async hook's `init`, enabled for one `nextTick` only. Returns whether one
 * is kept.
 */
export function keepTickObjectShape(): boolean {
  if (keptTickObject !== null) return true;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource: object) {
      if (type === "TickObject") keptTickObject = resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
  return keptTickObject !== null;
}
