/**
 * The line `service query` adds when the rows shown are not all there are, saying how to get the rest with the
 * flags the subcommand takes: `showing 5 of 243; --limit N or --cursor bzoz for more`. Null when nothing is left.
 */
export function pageNote(
  shown: number,
  meta: Record<string, unknown>,
  takes: { limit: boolean; cursor: boolean },
): string | null {
  const total = typeof meta.totalMatching === "number" ? meta.totalMatching : null;
  const cursor = typeof meta.nextCursor === "string" && meta.nextCursor !== "" ? meta.nextCursor : null;
  const cut = meta.truncated === true;
  if (cursor === null && !cut && (total === null || total <= shown)) return null;
  const ways = [
    ...(takes.limit ? ["--limit N"] : []),
    ...(cursor !== null && takes.cursor ? [`--cursor ${cursor}`] : []),
  ];
  return [
    `showing ${shown}${total === null ? ", more exist" : ` of ${total}`}`,
    ...(ways.length > 0 ? [`${ways.join(" or ")} for more`] : []),
    ...(cut ? ["the answer was cut to fit the response size ceiling"] : []),
  ].join("; ");
}
