/**
 * Database function calls prepared once per PostgreSQL connection (issue 12). The money paths call
 * one function per shared call (provider_money, play_rounds, ledger_write_batch) with twenty to
 * thirty array parameters; sent unnamed, every call was parsed and analysed again, 0.06–0.09 ms of
 * the database's CPU each. A call that is nothing but a function of parameters has one plan
 * whatever the values, so naming it costs no plan quality: PostgreSQL parses it once per
 * connection and re-validates it if the function is replaced. Every other statement stays
 * unnamed (planned for its values). PGlite prepares every statement already (pglite-statements.ts).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** `SELECT fn($1::type, $2::type[], …) AS name`: a function of parameters only. */
const PARAMETER = String.raw`\$\d+::[a-z]+(?: [a-z]+)*(?:\[\])?`;
const FUNCTION_CALL = new RegExp(
  String.raw`^\s*SELECT\s+([a-z_][a-z0-9_]*)\(\s*(?:${PARAMETER}\s*,\s*)*${PARAMETER}\s*\)\s+AS\s+[a-z_]+\s*$`,
  'i',
);

interface QueryConfigLike {
  text: string;
  name?: string;
  /** A Query, Cursor or stream object: submitted as it is, never copied. */
  submit?: unknown;
}

/** The statement name of a function call's text (one per text: a name must always mean the same text), or undefined. */
export function preparedCallName(text: string): string | undefined {
  const call = FUNCTION_CALL.exec(text);
  if (!call) return undefined;
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return `call_${call[1]!.slice(0, 40)}_${digest}`;
}

/** Makes the client name the function calls it is given (see above); everything else passes as it came. */
export function prepareFunctionCalls(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // The calls' names by text (a handful); any other text fails the pattern at its first words.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      name = preparedCallName(text);
      if (name) names.set(text, name);
    }
    return name;
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
    if (typeof config === 'object' && config !== null && typeof (config as QueryConfigLike).text === 'string') {
      const named = config as QueryConfigLike;
      const name = named.name === undefined && named.submit === undefined ? nameOf(named.text) : undefined;
      if (name) return query({ ...named, name }, ...rest);
    }
    return query(config, ...rest);
  };
}
