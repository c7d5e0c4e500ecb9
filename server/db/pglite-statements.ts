/**
 * PGlite's query path with prepared statements (issue 12: a real-money round on the embedded
 * database spent most of its time in PGlite's query machinery, not in the writes).
 *
 * PGlite's own `query` parses and plans every statement again and crosses into its WASM module six
 * times (Parse, Describe, Bind, Describe, Execute, Sync), each crossing parsed on the JavaScript side.
 * Drizzle sends the same few hundred statement texts over and over, so this client prepares each
 * data statement once under a name of its own and then runs it with one crossing (Bind, Execute,
 * Sync), using the parameter types and row description learnt when it was prepared.
 *
 * What keeps it equal to PGlite's own path:
 * - the same mutexes: a query outside a transaction takes PGlite's transaction mutex as PGlite's
 *   `query` does, and every statement its query mutex, so LISTEN, dumps and other callers of the
 *   client still wait for a transaction in flight;
 * - the same value serializers and result parsers (the caller's, then the client's own tables) and
 *   the same result shape as PGlite's parseResults;
 * - the same errors: PGlite's DatabaseError with its SQLSTATE and constraint, which retry.ts reads;
 * - a statement's plan follows the schema: PostgreSQL re-plans a prepared statement whose tables
 *   changed; one whose result columns changed fails once with 0A000 and is prepared again; a
 *   schema statement (CREATE, ALTER, DROP…) closes every prepared statement.
 * Only data statements are kept (SELECT, INSERT, UPDATE, DELETE, WITH), at most MAX_STATEMENTS of
 * them, the least recently used closed first; others (migrations, SET, SAVEPOINT) run unnamed.
 */
import { parse, protocol, types, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

const { serialize } = protocol;

/** More than the distinct statement texts the site sends; texts built with IN lists of any length make more. */
export const MAX_STATEMENTS = 2_000;
const DATA_STATEMENT = /^[\s(]*(select|insert|update|delete|with)\b/i;
const SCHEMA_STATEMENT = /^\s*(create|alter|drop|truncate|comment|do)\b/i;
/** "cached plan must not change result type": the statement's result columns changed under it. */
const PLAN_RESULT_CHANGED = '0A000';

/** The commands whose row count PGlite adds to affectedRows. */
const ROW_COUNTING_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

type BackendMessage = { name: string } & Record<string, unknown>;

interface PreparedStatement {
  /** '' for the unnamed statement, used once. */
  name: string;
  parameterTypes: number[];
  /** Absent for a statement that returns no rows. */
  rowDescription?: BackendMessage;
}

/** The parts of PGlite this client uses beyond its public query API: its two mutexes and type tables. */
interface PgliteInternals {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (value: string, typeId?: number) => unknown>;
}

type TransactionClient = Pick<Transaction, 'query' | 'exec' | 'rollback' | 'closed'>;

/**
 * The transaction drizzle's callback gets. A class, not an object literal with a `closed` getter:
 * V8 defines a literal's getter by a runtime call on every transaction, and the objects it closes
 * over then outlive the young generation (issue 12; blackjack's shoe showed it).
 */
class StatementsTransaction implements TransactionClient {
  closed = false;

  constructor(
    private readonly run: <R>(text: string, params: unknown[], options?: QueryOptions) => Promise<Results<R>>,
    private readonly runSimple: (text: string) => Promise<Results[]>,
  ) {}

  query<R>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<R>> {
    if (this.closed) throw new Error('Transaction is closed');
    return this.run<R>(text, params ?? [], options);
  }

  async exec(text: string): Promise<Array<Results>> {
    if (this.closed) throw new Error('Transaction is closed');
    await this.runSimple(text);
    return [];
  }

  async rollback(): Promise<void> {
    if (this.closed) throw new Error('Transaction is closed');
    this.closed = true;
    await this.runSimple('ROLLBACK');
  }
}

function joined(messages: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const message of messages) length += message.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const message of messages) {
    out.set(message, offset);
    offset += message.length;
  }
  return out;
}

/** What drizzle's PGlite driver calls on its client: `query` and `transaction`. */
export class PgliteStatements {
  readonly #client: PGlite;
  readonly #internals: PgliteInternals;
  /** Insertion order is use order: a statement used again is moved to the end. */
  readonly #prepared = new Map<string, PreparedStatement>();
  /** Names to close before the next statement (evicted, or every one after a schema change). */
  #toClose: string[] = [];
  #nextName = 1;
  readonly #maxStatements: number;

  constructor(client: PGlite, { maxStatements = MAX_STATEMENTS }: { maxStatements?: number } = {}) {
    this.#client = client;
    this.#maxStatements = maxStatements;
    this.#internals = client as unknown as PgliteInternals;
  }

  /** How many statements are prepared now (tests). */
  get preparedCount(): number {
    return this.#prepared.size;
  }

  /** A statement outside any transaction: it waits for a transaction in flight, as PGlite's own query does. */
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#internals._runExclusiveTransaction(async () => {
      const result = await this.#queryRetryingChangedPlan<T>(text, params, options);
      await this.#client.syncToFs();
      return result;
    });
  }

  transaction<T>(callback: (tx: TransactionClient) => Promise<T>): Promise<T> {
    return this.#internals._runExclusiveTransaction(async () => {
      await this.#simple('BEGIN');
      const tx = new StatementsTransaction(
        (text, params, options) => this.#statement(text, params, options),
        (text) => this.#simple(text),
      );
      try {
        const result = await callback(tx);
        if (!tx.closed) {
          tx.closed = true;
          // A transaction that failed inside answers COMMIT with ROLLBACK: that must not pass for success.
          const [commit] = await this.#simple('COMMIT');
          if (commit?.command === 'ROLLBACK') throw new Error('the transaction was aborted and rolled back');
        }
        await this.#client.syncToFs();
        return result;
      } catch (error) {
        if (!tx.closed) {
          tx.closed = true;
          await this.#simple('ROLLBACK');
        }
        throw error;
      }
    });
  }

  async #queryRetryingChangedPlan<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    try {
      return await this.#statement<T>(text, params, options);
    } catch (error) {
      // Outside a transaction nothing else was undone: prepare it again and run it once more.
      if ((error as { code?: string }).code !== PLAN_RESULT_CHANGED) throw error;
      return this.#statement<T>(text, params, options);
    }
  }

  /** One statement under PGlite's query mutex: prepared once, then one crossing per run. */
  #statement<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#internals._runExclusiveQuery(async () => {
      await this.#closeWaiting();
      const statement = this.#prepared.get(text) ?? (await this.#prepare(text, options));
      if (statement.name) {
        // Most recently used last, so eviction takes the oldest.
        this.#prepared.delete(text);
        this.#prepared.set(text, statement);
      }
      try {
        const messages = await this.#exchange([
          serialize.bind({ statement: statement.name, values: this.#serializedValues(statement, params, options) }),
          ...(statement.name ? [] : [serialize.describe({ type: 'P' })]),
          serialize.execute({}),
          serialize.sync(),
        ]);
        if (SCHEMA_STATEMENT.test(text)) this.#closeAll();
        const rowDescription = statement.name ? statement.rowDescription : messages.find((m) => m.name === 'rowDescription');
        return this.#results<T>(rowDescription, messages, options);
      } catch (error) {
        if ((error as { code?: string }).code === PLAN_RESULT_CHANGED) this.#forget(text);
        throw withQuery(error, text, params);
      }
    });
  }

  async #prepare(text: string, options?: QueryOptions): Promise<PreparedStatement> {
    const isKept = DATA_STATEMENT.test(text);
    const name = isKept ? `drizzle_${this.#nextName++}` : '';
    let messages: BackendMessage[];
    try {
      messages = await this.#exchange([
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]);
    } catch (error) {
      throw withQuery(error, text, []);
    }
    const parameters = messages.find((message) => message.name === 'parameterDescription');
    const statement: PreparedStatement = {
      name,
      parameterTypes: (parameters?.dataTypeIDs as number[] | undefined) ?? [],
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    };
    if (isKept) {
      this.#prepared.set(text, statement);
      if (this.#prepared.size > this.#maxStatements) {
        const [oldest] = this.#prepared.keys();
        if (oldest !== undefined) this.#forget(oldest);
      }
    }
    return statement;
  }

  /** Values as PGlite's own query sends them: its serializer for the parameter's type, else text. */
  #serializedValues(statement: PreparedStatement, params: unknown[], options?: QueryOptions): (string | null)[] {
    return params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.parameterTypes[i] ?? 0;
      const serializer = options?.serializers?.[type] ?? this.#internals.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
  }

  /**
   * The result as PGlite's parseResults makes it for one statement, without its cost: it merged the
   * caller's parsers into the client's table of several hundred types on every statement (drizzle
   * passes parsers with every query), a tenth of a round's CPU.
   */
  #results<T>(rowDescription: BackendMessage | undefined, messages: BackendMessage[], options?: QueryOptions): Results<T> {
    const fields = ((rowDescription?.fields ?? []) as { name: string; dataTypeID: number }[]).map(({ name, dataTypeID }) => ({
      name,
      dataTypeID,
    }));
    const ownParsers = options?.parsers;
    const parsers = fields.map(
      ({ dataTypeID }) =>
        ownParsers?.[dataTypeID] ??
        this.#internals.parsers[dataTypeID] ??
        types.parsers[dataTypeID] ??
        ((value: string) => value),
    );
    const asArrays = options?.rowMode === 'array';
    const rows: unknown[] = [];
    let affectedRows = 0;
    let command: string | undefined;
    let rowCount: number | undefined;
    for (const message of messages) {
      if (message.name === 'dataRow') {
        const values = (message.fields as (string | null)[]).map((value, i) =>
          value === null ? null : parsers[i]!(value, fields[i]!.dataTypeID),
        );
        rows.push(asArrays ? values : Object.fromEntries(values.map((value, i) => [fields[i]!.name, value])));
      } else if (message.name === 'commandComplete') {
        // "SELECT 2", "UPDATE 3", "INSERT 0 5" end in a row count; "CREATE TABLE" does not.
        const words = (message.text as string).split(' ');
        command = words[0];
        const count = Number.parseInt(words.at(-1) ?? '', 10);
        if (!Number.isNaN(count)) rowCount = count;
        if (command && ROW_COUNTING_COMMANDS.has(command)) affectedRows += count;
      }
    }
    const result: Results<T> = { rows: rows as T[], fields, affectedRows };
    if (command !== undefined) Object.assign(result, { command });
    if (rowCount !== undefined) Object.assign(result, { rowCount });
    return result;
  }

  /** Sends the messages in one crossing. */
  async #exchange(messages: Uint8Array[]): Promise<BackendMessage[]> {
    const answer = await this.#client.execProtocolStream(joined(messages), { syncToFs: false });
    return answer as unknown as BackendMessage[];
  }

  /**
   * Closes the statements waiting to be closed, in a crossing of their own: a close that fails (in
   * an aborted transaction) must not make the backend skip the statement sent after it. One that
   * fails leaves a statement prepared under a name never used again.
   */
  async #closeWaiting(): Promise<void> {
    if (this.#toClose.length === 0) return;
    const closes = this.#toClose.map((name) => serialize.close({ type: 'S', name }));
    this.#toClose = [];
    await this.#client.execProtocolStream(joined([...closes, serialize.sync()]), { syncToFs: false, throwOnError: false });
  }

  /** A simple-protocol statement (transaction control, a transaction's exec) under the query mutex. */
  #simple(text: string): Promise<Results[]> {
    return this.#internals._runExclusiveQuery(async () => {
      const messages = await this.#exchange([serialize.query(text)]);
      if (SCHEMA_STATEMENT.test(text)) this.#closeAll();
      return parse.parseResults(messages as never, this.#internals.parsers);
    });
  }

  #forget(text: string): void {
    const statement = this.#prepared.get(text);
    if (!statement) return;
    this.#prepared.delete(text);
    this.#toClose.push(statement.name);
  }

  #closeAll(): void {
    for (const text of [...this.#prepared.keys()]) this.#forget(text);
  }
}

/** The statement on the error, as PGlite's own query puts it there (logs name what failed). */
function withQuery(error: unknown, text: string, params: unknown[]): unknown {
  if (error && typeof error === 'object' && !('query' in error)) Object.assign(error, { query: text, params });
  return error;
}
