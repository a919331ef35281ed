import type { AddressInfo } from "node:net";
import { createServer } from "node:net";

/** A port the system gave out and that was closed again: nothing answers there, so a connection is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
