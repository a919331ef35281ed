/**
 * What a long bounded run must undo however it ends (servers, children, temporary folders), and a watchdog that
 * undoes it and exits 1 once the run is past its hard limit: stuck, not slow.
 */
export function createRunGuard(hardLimitMs: number, log: (line: string) => void) {
  const cleanups: Array<() => Promise<void>> = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  const watchdog = setTimeout(() => {
    log(`over ${hardLimitMs / 60_000} minutes: stopping`);
    void cleanUp().finally(() => process.exit(1));
  }, hardLimitMs);
  return {
    /** Registers an undo step; steps run last-registered first. */
    onCleanUp: (cleanup: () => Promise<void>) => void cleanups.push(cleanup),
    /** The run ended in time: stops the watchdog and runs every undo step. */
    finish: async () => {
      clearTimeout(watchdog);
      await cleanUp();
    },
  };
}
