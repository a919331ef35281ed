/**
 * What an adapter read from a piece of text, remembered by that text: publishers' documents repeat the same period
 * labels and dates across thousands of rows and across the snapshots of one calendar, and a luxon parse costs tens of
 * microseconds. Past `limit` texts the memory is simply started afresh, so a long run's memory stays bounded. The
 * results are shared between callers, so they must not be changed.
 */
export function createRememberedReads<T>(limit: number): (text: string, read: (text: string) => T) => T {
  const known = new Map<string, T>();
  return (text, read) => {
    if (known.has(text)) return known.get(text)!;
    if (known.size >= limit) known.clear();
    const result = read(text);
    known.set(text, result);
    return result;
  };
}
