/**
 * A PostgreSQL array literal, sent as one text parameter and cast by the statement: drizzle
 * would spread a JavaScript array into a list of parameters, and PGlite and node-postgres
 * serialise arrays differently. Set-based statements (the ledger's batch call, shared rounds)
 * pass their columns this way.
 */
export type ArrayItem = string | number | bigint | null;

/** A quote or backslash: only then does an element need escaping (most are ids, amounts and hashes). */
const ESCAPED = /["\\]/;

export function pgArray(values: readonly ArrayItem[]): string {
  let literal = '{';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) literal += ',';
    const value = values[index];
    if (value === null || value === undefined) {
      literal += 'NULL';
      continue;
    }
    const text = typeof value === 'string' ? value : String(value);
    literal += ESCAPED.test(text) ? `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"` : `"${text}"`;
  }
  return `${literal}}`;
}
