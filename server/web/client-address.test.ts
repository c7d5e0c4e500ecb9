/**
 * The client's address and country behind proxies (issue 11, reproducer 4: with TRUST_PROXY=1 the
 * leftmost X-Forwarded-For was taken, so a client chose its own address; and a client's
 * X-Country-Code beat the load balancer's header).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  canonicalAddress,
  clientAddress,
  clientCountry,
  isFromTrustedProxy,
  NO_PROXY,
  parseAddressRange,
  type AddressRange,
  type ProxyTrust,
} from './client-address';

const ranges = (...values: string[]): AddressRange[] => values.map((value) => parseAddressRange(value) as AddressRange);
const BEHIND_RANGES: ProxyTrust = {
  mode: 'ranges',
  ranges: ranges('10.0.0.0/8', '127.0.0.1/32', 'fd00::/8'),
  countryHeader: 'cf-ipcountry',
};
const ONE_HOP: ProxyTrust = { mode: 'hops', hops: 1, countryHeader: 'cf-ipcountry' };
const TWO_HOPS: ProxyTrust = { mode: 'hops', hops: 2 };
const LOAD_BALANCER = '10.0.0.1';
const CLIENT = '203.0.113.9';

/** What a client may put in front of the entries our proxies append: addresses, garbage, nothing. */
const clientWritten = fc.array(
  fc.oneof(
    fc.ipV4(),
    fc.ipV6(),
    fc.constantFrom('', 'unknown', '127.0.0.1', '10.0.0.7', '::1', '[::1]:80', '1.2.3.4:99'),
    fc.string(),
  ),
  { maxLength: 6 },
);
const RUNS = { seed: 11, numRuns: 500 };

describe('client address behind proxies (issue 11: the rightmost address not a trusted proxy)', () => {
  it('without trusted proxies the peer is the client, whatever X-Forwarded-For says', () => {
    expect(clientAddress(NO_PROXY, CLIENT, '1.1.1.1')).toBe(CLIENT);
  });

  it('with ranges: a client prepending its own X-Forwarded-For cannot change its address', () => {
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, `6.6.6.6, ${CLIENT}`)).toBe(CLIENT);
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, `6.6.6.6, ${CLIENT}, 10.1.2.3`)).toBe(CLIENT);
    // A client naming one of our proxies as itself is still itself: the walk stops at its real address.
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, `10.0.0.7, ${CLIENT}`)).toBe(CLIENT);
    fc.assert(
      fc.property(clientWritten, fc.ipV4(), (written, real) => {
        const forwardedFor = [...written.map((entry) => entry.replaceAll(',', ' ')), real].join(', ');
        const expected = isFromTrustedProxy(BEHIND_RANGES, real) ? undefined : real;
        if (expected) expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, forwardedFor)).toBe(expected);
      }),
      RUNS,
    );
  });

  it('with ranges: a request not from a trusted proxy is taken at its peer address', () => {
    expect(clientAddress(BEHIND_RANGES, CLIENT, '10.0.0.9, 1.1.1.1')).toBe(CLIENT);
  });

  it('with a hop count: the entry the outermost proxy wrote, whatever the client put before it', () => {
    expect(clientAddress(ONE_HOP, LOAD_BALANCER, `6.6.6.6, ${CLIENT}`)).toBe(CLIENT);
    expect(clientAddress(TWO_HOPS, LOAD_BALANCER, `6.6.6.6, ${CLIENT}, 10.1.2.3`)).toBe(CLIENT);
    fc.assert(
      fc.property(clientWritten, fc.ipV4(), (written, real) => {
        const forwardedFor = [...written.map((entry) => entry.replaceAll(',', ' ')), real].join(', ');
        expect(clientAddress(ONE_HOP, LOAD_BALANCER, forwardedFor)).toBe(real);
      }),
      RUNS,
    );
  });

  it('IPv6: brackets, ports, case and IPv4-mapped forms are one address', () => {
    expect(clientAddress(BEHIND_RANGES, '::ffff:10.0.0.1', '2001:DB8:0:0::1')).toBe('2001:db8::1');
    expect(clientAddress(BEHIND_RANGES, 'fd00::1', '[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, '::ffff:203.0.113.9')).toBe(CLIENT);
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, `${CLIENT}:5555`)).toBe(CLIENT);
    expect(canonicalAddress('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(isFromTrustedProxy(BEHIND_RANGES, '::ffff:127.0.0.1')).toBe(true);
  });

  it('a malformed entry stops the walk at the last address a trusted proxy vouched for', () => {
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, `${CLIENT}, not-an-address`)).toBe(LOAD_BALANCER);
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, `${CLIENT}, , 10.0.0.2`)).toBe('10.0.0.2');
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, 'garbage')).toBe(LOAD_BALANCER);
    expect(clientAddress(ONE_HOP, LOAD_BALANCER, 'garbage')).toBe(LOAD_BALANCER);
    expect(clientAddress(BEHIND_RANGES, LOAD_BALANCER, '')).toBe(LOAD_BALANCER);
  });

  it('parses ranges and refuses what is not one', () => {
    expect(parseAddressRange('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseAddressRange('127.0.0.1')).toEqual({ address: '127.0.0.1', prefix: 32, family: 'ipv4' });
    expect(parseAddressRange('fd00::/8')).toEqual({ address: 'fd00::', prefix: 8, family: 'ipv6' });
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'example.com', '10.0.0.0/8/1', '::/129', '10.0.0.0/x', '']) {
      expect(parseAddressRange(bad), bad).toBeUndefined();
    }
  });
});

describe('client country (issue 11: only the configured header, only through a trusted proxy)', () => {
  const headers = (values: Record<string, string>) => {
    const all = new Headers(values);
    return (name: string) => all.get(name);
  };

  it('reads the configured header and never a client-supplied X-Country-Code', () => {
    expect(clientCountry(BEHIND_RANGES, LOAD_BALANCER, headers({ 'cf-ipcountry': 'it', 'x-country-code': 'US' }))).toBe('IT');
    expect(clientCountry(BEHIND_RANGES, LOAD_BALANCER, headers({ 'x-country-code': 'IT' }))).toBeNull();
    expect(clientCountry(ONE_HOP, LOAD_BALANCER, headers({ 'x-country-code': 'FR', 'cf-ipcountry': 'US' }))).toBe('US');
  });

  it('ignores the header from a peer that is not a trusted proxy, without a configured header, and when malformed', () => {
    expect(clientCountry(BEHIND_RANGES, CLIENT, headers({ 'cf-ipcountry': 'IT' }))).toBeNull();
    expect(clientCountry(TWO_HOPS, LOAD_BALANCER, headers({ 'cf-ipcountry': 'IT', 'x-country-code': 'IT' }))).toBeNull();
    expect(clientCountry(NO_PROXY, LOAD_BALANCER, headers({ 'cf-ipcountry': 'IT' }))).toBeNull();
    expect(clientCountry(ONE_HOP, LOAD_BALANCER, headers({ 'cf-ipcountry': 'ITA' }))).toBeNull();
  });
});
