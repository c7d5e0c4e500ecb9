/**
 * Who the client is behind load balancers: its address (per-address rate limits key on it) and
 * its country (blocked countries). Every X-Forwarded-For entry left of the ones our own proxies
 * wrote was written by the client, so the address is the rightmost entry not written by a trusted
 * proxy: found by a list of trusted proxy ranges (TRUSTED_PROXIES) or by a fixed number of proxies
 * in front of us (PROXY_HOPS). The country comes from the one header the operator names
 * (COUNTRY_HEADER), and only on requests that came through a trusted proxy (issue 11, reproducer 4).
 */
import { BlockList, isIP } from 'node:net';

/** One range of TRUSTED_PROXIES: an address and its prefix length. */
export interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** How far forwarded headers are believed: not at all, from listed proxies, or from a number of hops. */
export type ProxyTrust =
  | { mode: 'none' }
  | { mode: 'ranges'; ranges: readonly AddressRange[]; countryHeader?: string }
  | { mode: 'hops'; hops: number; countryHeader?: string };

/** No proxy in front: the socket's peer is the client, forwarded headers are the client's own words. */
export const NO_PROXY: ProxyTrust = { mode: 'none' };

/** Where the peer's address is when the answer comes from Node's HTTP server (@hono/node-server). */
export function peerAddress(env: unknown): string {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return canonicalAddress(incoming?.socket?.remoteAddress ?? '') ?? '127.0.0.1';
}

/**
 * An address as one spelling: brackets and a port dropped, an IPv4-mapped IPv6 address as IPv4,
 * IPv6 compressed and lower-case; undefined when it is not an IP address at all.
 */
export function canonicalAddress(raw: string): string | undefined {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  const family = isIP(value);
  if (family === 4) return value;
  if (family !== 6) return undefined;
  const compressed = new URL(`http://[${value}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(compressed);
  // The URL parser writes a mapped IPv4 address in hex (::ffff:7f00:1).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (mapped?.[1]) return mapped[1];
  if (hexMapped?.[1] && hexMapped[2]) return hexToIpv4(hexMapped[1], hexMapped[2]);
  return compressed;
}

function hexToIpv4(high: string, low: string): string {
  const value = (parseInt(high, 16) << 16) | parseInt(low, 16);
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.');
}

/** Parses `10.0.0.0/8`, `127.0.0.1` or `fd00::/8`; undefined when it is not a range. */
export function parseAddressRange(raw: string): AddressRange | undefined {
  const [address = '', prefixText, ...rest] = raw.trim().split('/');
  const family = isIP(address);
  if (rest.length > 0 || family === 0) return undefined;
  const maxPrefix = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  if (prefix > maxPrefix) return undefined;
  return { address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
}

/** A test of "one of our proxies" for a canonical address. */
function trustedMatcher(ranges: readonly AddressRange[]): (address: string) => boolean {
  const list = new BlockList();
  for (const range of ranges) list.addSubnet(range.address, range.prefix, range.family);
  return (address) => {
    const family = isIP(address);
    if (family === 0) return false;
    // An IPv4 range also covers the same address seen as IPv4-mapped IPv6, and the other way round.
    return list.check(address, family === 4 ? 'ipv4' : 'ipv6') || (family === 4 && list.check(`::ffff:${address}`, 'ipv6'));
  };
}

const matchers = new WeakMap<readonly AddressRange[], (address: string) => boolean>();

function isTrustedAddress(ranges: readonly AddressRange[], address: string): boolean {
  let matcher = matchers.get(ranges);
  if (!matcher) {
    matcher = trustedMatcher(ranges);
    matchers.set(ranges, matcher);
  }
  return matcher(address);
}

/** Whether the request came straight from a proxy we trust, so its forwarded headers are believed. */
export function isFromTrustedProxy(trust: ProxyTrust, peer: string): boolean {
  if (trust.mode === 'none') return false;
  if (trust.mode === 'hops') return true;
  const address = canonicalAddress(peer);
  return address !== undefined && isTrustedAddress(trust.ranges, address);
}

/** The X-Forwarded-For entries, left to right, as written (a repeated header joins with commas). */
function forwardedChain(header: string | null | undefined): string[] {
  return (header ?? '').split(',').map((entry) => entry.trim());
}

/**
 * The client's address. With ranges: walking X-Forwarded-For from the right, the first address
 * that is not a trusted proxy. With hops: the entry the outermost of our proxies wrote. An entry
 * that is not an address stops the walk at the last address we could believe.
 */
export function clientAddress(trust: ProxyTrust, peer: string, forwardedFor: string | null | undefined): string {
  const direct = canonicalAddress(peer) ?? '127.0.0.1';
  if (trust.mode === 'none' || !forwardedFor || !isFromTrustedProxy(trust, direct)) return direct;
  const chain = forwardedChain(forwardedFor);
  if (trust.mode === 'hops') return addressAtHops(chain, trust.hops, direct);
  let believed = direct;
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const address = canonicalAddress(chain[index] ?? '');
    if (address === undefined) return believed;
    if (!isTrustedAddress(trust.ranges, address)) return address;
    believed = address;
  }
  // Every entry is one of our proxies: the leftmost is the nearest to the client we know.
  return believed;
}

/** With N proxies in front, the last N entries are theirs: the client is the Nth from the right. */
function addressAtHops(chain: string[], hops: number, direct: string): string {
  const index = Math.max(chain.length - hops, 0);
  // A malformed entry: the nearest address to its right (written by one of our proxies), else the peer.
  for (let at = index; at < chain.length; at += 1) {
    const address = canonicalAddress(chain[at] ?? '');
    if (address !== undefined) return address;
  }
  return direct;
}

/** The ISO country from the configured header, only on a request that came through a trusted proxy. */
export function clientCountry(
  trust: ProxyTrust,
  peer: string,
  header: (name: Lowercase<string>) => string | null | undefined,
): string | null {
  if (trust.mode === 'none' || !trust.countryHeader || !isFromTrustedProxy(trust, peer)) return null;
  const code = header(trust.countryHeader.toLowerCase() as Lowercase<string>)
    ?.trim()
    .toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
}
