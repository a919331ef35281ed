import { existsSync } from "node:fs";

/** Debian's `chromium` package; tests that need a browser skip, naming the package, where it is not installed. */
export const CHROMIUM = "/usr/bin/chromium";
export const chromiumInstalled = existsSync(CHROMIUM);

/** Headless, and quiet on a closed network: without the background-networking flags it keeps trying Google's hosts. */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
