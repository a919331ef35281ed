import { isIP } from "node:net";

/**
 * The client a request is counted for. `X-Forwarded-For` is read only from a trusted proxy (SERVICE_TRUSTED_PROXIES),
 * as anyone could write it, and from the right, skipping trusted proxies, so a forged first entry chooses nothing.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  trustedProxies: ReadonlySet<string>,
): string | undefined {
  const direct = normalised(peer);
  if (direct === undefined || forwardedFor === null || !trustedProxies.has(direct)) return direct;
  const hops = forwardedFor.split(",").map((hop) => normalised(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop === undefined) return direct; // an unreadable entry: count the proxy, never a guess
    if (!trustedProxies.has(hop)) return hop;
  }
  return direct;
}

/**
 * An IP address as compared: IPv4-mapped IPv6 (`::ffff:10.0.0.1`) as its IPv4 form; anything else not an IP is
 * undefined.
 */
export function normalised(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const plain = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return isIP(plain) === 0 ? undefined : plain.toLowerCase();
}
