/**
 * One serialisation for hashing: the ledger's idempotency keys and audit chain, and the game
 * rounds' request hashes, must hash equal values equally whatever the key order.
 */

/** A value already serialised by canonicalJson, written into a larger value as it is (not again). */
export class CanonicalText {
  constructor(readonly text: string) {}
}

/**
 * JSON with sorted keys and bigints as strings: the same entry always hashes the same. It runs
 * several times for every real-money round (request hashes, audit content), so it builds the
 * string in one pass instead of through entry arrays.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      // A bigint's digits and sign need no escaping: the same text as JSON.stringify(String(value)).
      return `"${value}"`;
    case 'object':
      return value === null ? 'null' : objectJson(value);
    default:
      return JSON.stringify(value ?? null);
  }
}

function objectJson(value: object): string {
  if (value instanceof CanonicalText) return value.text;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) text += (index === 0 ? '' : ',') + canonicalJson(value[index]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, as `<` does: the order every earlier hash used.
  const keys = Object.keys(record).sort();
  let text = '';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    text += `${text === '' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `{${text}}`;
}
