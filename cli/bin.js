#!/usr/bin/env node
// The `service` executable runs the compiled JavaScript that `npm ci` builds (the `prepare` script, `npm run build`);
// developers who want the TypeScript directly use `npm run service` or `npm run dev` (tsx).
import { existsSync } from "node:fs";

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("service is not built: run `npm run build` (npm ci does it through the prepare script)\n");
  process.exit(1);
}
await import(entry.href);
