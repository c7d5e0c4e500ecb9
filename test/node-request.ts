/**
 * What the node-server adapter built of a request it answered (issue 12): it builds the web Request
 * and the web Headers only when asked, and caches each in a symbol-keyed field of the lightweight
 * request it hands to the app.
 */
function hasCached(raw: Request, descriptions: readonly string[]): boolean {
  return Object.getOwnPropertySymbols(raw).some(
    (symbol) => descriptions.includes(symbol.description ?? '') && Boolean(Reflect.get(raw, symbol)),
  );
}

/** Whether the adapter built this request's web Headers. */
export function isWebHeadersBuilt(raw: Request): boolean {
  return hasCached(raw, ['headersKey']);
}

/** Whether the adapter built this request's web Request or its web Headers. */
export function isWebRequestBuilt(raw: Request): boolean {
  return hasCached(raw, ['requestCache', 'headersKey']);
}
