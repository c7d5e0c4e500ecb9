/**
 * Which wallet URLs an operator's launch may name. A real aggregator keeps each operator's
 * wallet endpoint on file; the demo one takes it from the signed launch, so a published demo key
 * cannot point it anywhere: loopback addresses only unless AGGREGATOR_WALLET_ORIGINS lists more.
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function walletUrlRule(origins: string | undefined): (url: URL) => boolean {
  const listed = new Set(
    (origins ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/$/, ''))
      .filter(Boolean),
  );
  if (listed.size > 0) return (url) => listed.has(url.origin);
  return (url) => (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);
}
