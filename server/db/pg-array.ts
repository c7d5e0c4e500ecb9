/**
 * A PostgreSQL array literal, sent as one text parameter and cast by the statement: drizzle
 * would spread a JavaScript array into a list of parameters, and PGlite and node-postgres
 * serialise arrays differently. Set-based statements (the ledger's batch call, shared rounds)
 * pass their columns this way.
 */
export type ArrayItem = string | number | bigint | null;

export function pgArray(values: readonly ArrayItem[]): string {
  const items = values.map((value) =>
    value === null ? 'NULL' : `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  );
  return `{${items.join(',')}}`;
}
