import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The installed package's root: the nearest folder above this module holding package.json. Found by walking up
 * because this module runs both from source (`cli/`) and compiled (`dist/cli/`), and the data folders sit at the root.
 */
function findPackageRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the installed package, e.g. `packagePath("data/samples")`. */
export function packagePath(relative: string): string {
  return join(PACKAGE_ROOT, relative);
}
