/**
 * A json or jsonb value as a driver hands it back: node-postgres and PGlite parse json columns
 * and function results, but a value can still come as text (a driver without that parser), so
 * the readers of the database functions' answers (ledger_write_batch, provider_money) and of
 * json columns read back raw take either.
 */
export function parsedJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
