/** A listener as the operator named it: its address, and the settings that choose its port and host. */
export interface NamedListener {
  port: number;
  host: string;
  /** The flag or variable to change for another port (`--port`, `SERVICE_METRICS_PORT`). */
  portSetting: string;
  /** The flag or variable to change for another address (`--host`, `SERVICE_METRICS_HOST`). */
  hostSetting: string;
}

/**
 * Why a listener could not start, in the operator's words rather than Node's (`listen EADDRINUSE: address already in
 * use 127.0.0.1:3000`): what is wrong and which setting to change. Used by `serve` (its API and its metrics port) and
 * `demo-met`, so each says it the same way. The flags were well-formed, so this is a run failure (exit 1), not a
 * usage error; an error of any other kind is returned as it came.
 */
export function listenFailure(error: unknown, listener: NamedListener): unknown {
  const { port, host, portSetting, hostSetting } = listener;
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case "EADDRINUSE":
      return new Error(`port ${port} is already in use on ${host}: pick another with ${portSetting}`);
    case "EADDRNOTAVAIL":
      return new Error(`cannot listen on ${host}: not an address of this machine: pick another with ${hostSetting}`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new Error(`cannot listen on ${host}: no address is known by that name: pick another with ${hostSetting}`);
    case "EACCES":
      return new Error(
        `port ${port} on ${host} needs privileges this process lacks (ports below 1024 usually do): pick another with ${portSetting}`,
      );
    default:
      return error;
  }
}
