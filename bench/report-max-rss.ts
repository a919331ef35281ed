// Preloaded into a process measured by bench/ingest-document-memory.ts (`node --import`): its peak resident memory,
// threads included, as its last line on stderr.
process.on("exit", () => process.stderr.write(`max-rss-kb ${process.resourceUsage().maxRSS}\n`));
