import { EventEmitter } from 'node:events';
import { messages, type PGlite } from '@electric-sql/pglite';

/**
 * A `pg`-shaped driver over one PGlite instance, handed to TypeORM through its `driver` option.
 *
 * Why not typeorm-pglite as shipped: it gives every query runner the *same* PGlite session at the
 * same time, so two concurrent transactions interleave on one connection — a rollback can keep the
 * other transaction's rows, reads see uncommitted rows and `SELECT … FOR UPDATE` never blocks. It also
 * keeps the instance in a process-wide static, so two data sources in one process share a database.
 *
 * Here the session is a resource with a mutex: a query runner owns it from `connect` to `release`,
 * exactly like a `pg` pool of size 1. Consequence (same as pg with max=1): code that holds a
 * transaction must not await another query outside that transaction, or it waits on itself.
 */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  acquire(): Promise<() => void> {
    let unlock!: () => void;
    const next = new Promise<void>((resolve) => (unlock = resolve));
    const ready = this.tail.then(() => {
      this.waiting--;
      return unlock;
    });
    this.waiting++;
    this.tail = this.tail.then(() => next);
    return ready;
  }

  get queued(): number {
    return this.waiting;
  }
}

type QueryCallback = (err: Error | null, result?: PgResult) => void;
interface Field {
  name: string;
  dataTypeID: number;
}
interface PgResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: Field[];
}

function commandOf(sql: string): string {
  const m = /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([a-zA-Z]+)/.exec(sql);
  return m ? m[1].toUpperCase() : '';
}

// -------------------------------------------------------------------------------------------------
// PostgreSQL's wire protocol, the few messages this driver sends and reads.
//
// Why not PGlite's query(): it parses, plans and describes every statement from scratch, makes six
// calls into the WASM module for each (Parse, Describe, Bind, Describe, Execute, Sync) and decodes
// the answers with a general-purpose protocol parser — all on the app's thread, since PGlite runs
// in it. Here a statement text seen before runs as a named prepared statement (PostgreSQL's plan
// cache included) with one call into the module, and answers are decoded straight into rows. For
// the app's short OLTP statements that is about 3× cheaper (a primary-key read: 290 → 90 µs).
// Values are serialized and parsed with the instance's own serializers and parsers, so rows are
// exactly what query() returns.

/** Builds a batch of frontend messages in one buffer. */
class Writer {
  private buf = Buffer.allocUnsafe(1024);
  private pos = 0;
  /** Where the current message's length goes. */
  private start = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  begin(type: string): this {
    this.ensure(5);
    this.buf[this.pos] = type.charCodeAt(0);
    this.start = this.pos + 1;
    this.pos += 5;
    return this;
  }

  end(): this {
    this.buf.writeInt32BE(this.pos - this.start, this.start);
    return this;
  }

  int16(n: number): this {
    this.ensure(2);
    this.pos = this.buf.writeInt16BE(n, this.pos);
    return this;
  }

  int32(n: number): this {
    this.ensure(4);
    this.pos = this.buf.writeInt32BE(n, this.pos);
    return this;
  }

  cstring(s: string): this {
    this.ensure(Buffer.byteLength(s) + 1);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    this.buf[this.pos++] = 0;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** A length-prefixed parameter value. */
  value(v: string | Uint8Array | null): this {
    if (v === null) return this.int32(-1);
    if (typeof v === 'string') {
      const n = Buffer.byteLength(v);
      this.int32(n);
      this.ensure(n);
      this.pos += this.buf.write(v, this.pos, 'utf8');
      return this;
    }
    return this.int32(v.length).bytes(v);
  }

  query(sql: string): this {
    return this.begin('Q').cstring(sql).end();
  }

  parse(name: string, sql: string): this {
    return this.begin('P').cstring(name).cstring(sql).int16(0).end();
  }

  describeStatement(name: string): this {
    return this.begin('D').bytes(STATEMENT).cstring(name).end();
  }

  /** Bind (text parameters, bytea as binary), describe and run the unnamed portal. */
  execute(name: string, values: Array<string | Uint8Array | null>): this {
    this.begin('B').cstring('').cstring(name);
    if (values.some((v) => v instanceof Uint8Array)) {
      this.int16(values.length);
      for (const v of values) this.int16(v instanceof Uint8Array ? 1 : 0);
    } else {
      this.int16(0);
    }
    this.int16(values.length);
    for (const v of values) this.value(v);
    this.int16(0).end(); // every result column as text
    this.begin('D').bytes(PORTAL).cstring('').end();
    return this.begin('E').cstring('').int32(0).end();
  }

  close(name: string): this {
    return this.begin('C').bytes(STATEMENT).cstring(name).end();
  }

  sync(): this {
    return this.begin('S').end();
  }

  get empty(): boolean {
    return this.pos === 0;
  }

  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(1024);
    this.pos = 0;
    return out;
  }
}
const STATEMENT = Uint8Array.of(0x53); // 'S'
const PORTAL = Uint8Array.of(0x50); // 'P'

interface ResultSet {
  fields: Field[];
  rows: Array<Record<string, unknown>>;
  command: string;
  /** Like PGlite's query(): rows written so far in the batch (INSERT/UPDATE/DELETE/COPY/MERGE). */
  affectedRows: number;
}
interface Answer {
  results: ResultSet[];
  paramTypes: number[];
  error: Error | null;
}
type Parsers = PGlite['parsers'];

/** Decodes the backend messages of one batch: result sets, parameter types, the first error. */
function readAnswer(buf: Buffer, parsers: Parsers): Answer {
  const results: ResultSet[] = [];
  let paramTypes: number[] = [];
  let error: Error | null = null;
  let fields: Field[] = [];
  let decoders: Array<((x: string, typeId?: number) => unknown) | undefined> = [];
  let rows: Array<Record<string, unknown>> = [];
  let affected = 0;
  let pos = 0;
  while (pos + 5 <= buf.length) {
    const type = buf[pos] as number;
    const end = pos + 1 + buf.readInt32BE(pos + 1);
    let p = pos + 5;
    pos = end;
    switch (type) {
      case 0x54: {
        // RowDescription
        const n = buf.readInt16BE(p);
        p += 2;
        fields = new Array<Field>(n);
        decoders = new Array(n);
        for (let i = 0; i < n; i++) {
          const z = buf.indexOf(0, p);
          const name = buf.toString('utf8', p, z);
          p = z + 1;
          const dataTypeID = buf.readInt32BE(p + 6);
          p += 18;
          fields[i] = { name, dataTypeID };
          decoders[i] = parsers[dataTypeID];
        }
        break;
      }
      case 0x44: {
        // DataRow
        const n = buf.readInt16BE(p);
        p += 2;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const len = buf.readInt32BE(p);
          p += 4;
          const f = fields[i] as Field;
          if (len < 0) {
            row[f.name] = null;
            continue;
          }
          const text = buf.toString('utf8', p, p + len);
          p += len;
          const decode = decoders[i];
          row[f.name] = decode ? decode(text, f.dataTypeID) : text;
        }
        rows.push(row);
        break;
      }
      case 0x43: {
        // CommandComplete: "SELECT 2", "UPDATE 3", "INSERT 0 5", "CREATE TABLE"…
        const tag = buf.toString('utf8', p, end - 1);
        const parts = tag.split(' ');
        const command = parts[0] as string;
        if (command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'COPY' || command === 'MERGE') {
          affected += parseInt(parts[parts.length - 1] as string, 10) || 0;
        }
        results.push({ fields, rows, command, affectedRows: affected });
        fields = [];
        decoders = [];
        rows = [];
        break;
      }
      case 0x74: {
        // ParameterDescription
        const n = buf.readInt16BE(p);
        paramTypes = Array.from({ length: n }, (_, i) => buf.readInt32BE(p + 2 + 4 * i));
        break;
      }
      case 0x45: // ErrorResponse
        error ??= databaseError(buf, p, end);
        break;
      default:
      // ParseComplete, BindComplete, CloseComplete, NoData, EmptyQueryResponse, ReadyForQuery,
      // notices, parameter status: nothing to keep.
    }
  }
  return { results, paramTypes, error };
}

const ERROR_FIELDS: Record<string, string> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/** The same DatabaseError (and fields) PGlite and `pg` throw, so callers read `code`, `constraint`… as usual. */
function databaseError(buf: Buffer, start: number, end: number): Error {
  const f: Record<string, string> = {};
  let p = start;
  while (p < end && buf[p] !== 0) {
    const code = String.fromCharCode(buf[p] as number);
    const z = buf.indexOf(0, p + 1);
    f[code] = buf.toString('utf8', p + 1, z);
    p = z + 1;
  }
  const err = new messages.DatabaseError(f.M ?? 'database error', end - start + 4, 'error') as unknown as Record<string, unknown>;
  for (const [k, name] of Object.entries(ERROR_FIELDS)) if (f[k] !== undefined) err[name] = f[k];
  return err as unknown as Error;
}

/** Statements that can change what a prepared statement's plan or result type refers to (anywhere in a script). */
const DDL = /(?:^|;)\s*(?:CREATE|ALTER|DROP|COMMENT|GRANT|REVOKE|REINDEX)\b/i;
/** Named statements kept prepared in the session; the least recently used one is closed beyond this. */
const STATEMENT_CACHE_MAX = 256;
const BYTEA_OID = 17;
/** A transaction start on its own, which can wait for the transaction's first statement. */
const BEGIN = /^\s*(?:BEGIN|START\s+TRANSACTION)\b[^;]*;?\s*$/i;

interface Prepared {
  name: string;
  /** Parameter types PostgreSQL inferred at Parse: each value is serialized for its type, as PGlite's query() does. */
  types: number[];
}

/**
 * The session's statements. A statement text seen before costs one call into the module (Bind,
 * Describe, Execute, Sync); a new one costs a Parse + Describe first. A `BEGIN` waits and goes with
 * the transaction's first statement (one call fewer per transaction; an error it could raise comes
 * with that statement, where the caller would have seen the failed transaction anyway). After DDL
 * every prepared statement is dropped (a cached `SELECT *` must not outlive a column change).
 */
class Session {
  private readonly statements = new Map<string, Prepared>();
  /** Messages that go with the next call: a deferred BEGIN, closes of evicted statements. */
  private readonly pending = new Writer();
  private seq = 0;

  constructor(private readonly db: PGlite) {}

  async run(sql: string, params: unknown[] | undefined): Promise<PgResult> {
    return this.db.runExclusive(async () => {
      if (!params || params.length === 0) {
        if (BEGIN.test(sql)) {
          this.pending.query(sql);
          return { rows: [], rowCount: 0, command: commandOf(sql), fields: [] };
        }
        // Simple protocol: it accepts several statements (migrations); TypeORM wants the last result.
        const answer = await this.call(new Writer().query(sql));
        if (DDL.test(sql)) this.forgetAll();
        return toPg(sql, answer.results[answer.results.length - 1]);
      }
      const st = this.statements.get(sql) ?? (await this.prepare(sql));
      // Most recently used last: the Map's order is the LRU order.
      this.statements.delete(sql);
      this.statements.set(sql, st);
      const values = params.map((v, i) => this.value(v, st.types[i]));
      const answer = await this.call(new Writer().execute(st.name, values).sync());
      return toPg(sql, answer.results[answer.results.length - 1]);
    });
  }

  private async prepare(sql: string): Promise<Prepared> {
    const name = `tf_${++this.seq}`;
    const answer = await this.call(new Writer().parse(name, sql).describeStatement(name).sync());
    const st: Prepared = { name, types: answer.paramTypes };
    this.statements.set(sql, st);
    if (this.statements.size > STATEMENT_CACHE_MAX) {
      const [oldest, old] = this.statements.entries().next().value as [string, Prepared];
      this.statements.delete(oldest);
      this.pending.close(old.name);
    }
    return st;
  }

  /** PGlite's serializer for the parameter's type (bytea goes as binary, unencoded). */
  private value(v: unknown, type: number | undefined): string | Uint8Array | null {
    if (v === null || v === undefined) return null;
    if (type === BYTEA_OID && v instanceof Uint8Array) return v;
    const s = type === undefined ? undefined : this.db.serializers[type];
    return s ? s(v) : String(v);
  }

  /** One call into the module; the first error reported is thrown once the whole batch ran. */
  private async call(batch: Writer): Promise<Answer> {
    const message = this.pending.empty ? batch.take() : Buffer.concat([this.pending.take(), batch.take()]);
    const chunks: Buffer[] = [];
    // The module hands its output over in views of its own memory: copied before it reuses them.
    await this.db.execProtocolRawStream(message, { syncToFs: false, onRawData: (d) => void chunks.push(Buffer.from(d)) });
    // Like query(): the files are synced between transactions, not inside one.
    if (!this.db.isInTransaction()) await this.db.syncToFs();
    const answer = readAnswer(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), this.db.parsers);
    if (answer.error) throw answer.error;
    return answer;
  }

  /** After DDL: every prepared statement goes (with the next call). */
  private forgetAll(): void {
    if (this.statements.size === 0) return;
    this.statements.clear();
    this.pending.query('DEALLOCATE ALL');
  }
}

function toPg(sql: string, r: ResultSet | undefined): PgResult {
  const rows = r?.rows ?? [];
  return { rows, rowCount: r?.affectedRows ?? rows.length, command: commandOf(sql), fields: r?.fields ?? [] };
}

export interface PGliteDriverModule {
  Pool: new (options?: unknown) => EventEmitter;
}

const drivers = new WeakSet<object>();

/**
 * Whether a data source runs on this driver: one in-process session whose statements run one at a
 * time on the app's thread (a statement is then atomic and isolated from every other one).
 */
export function isInProcessDatabase(dataSource: { options: object }): boolean {
  const driver = (dataSource.options as { driver?: unknown }).driver;
  return typeof driver === 'object' && driver !== null && drivers.has(driver);
}

export function createPGliteDriver(db: PGlite): PGliteDriverModule {
  const lock = new Mutex();
  const session = new Session(db);

  class Client extends EventEmitter {
    private released = false;
    /** Tracks whether the owner left a transaction open, so it is rolled back before the next owner. */
    private inTransaction = false;

    constructor(private readonly unlock: () => void) {
      super();
    }

    query(sql: string, params?: unknown[] | QueryCallback, cb?: QueryCallback): Promise<PgResult> {
      if (typeof params === 'function') {
        cb = params;
        params = undefined;
      }
      if (this.released) {
        const err = new Error('PGlite client used after release');
        cb?.(err);
        return Promise.reject(err);
      }
      const cmd = commandOf(sql);
      if (cmd === 'BEGIN' || cmd === 'START') this.inTransaction = true;
      if (cmd === 'COMMIT' || cmd === 'ROLLBACK' || cmd === 'END') this.inTransaction = false;
      return session.run(sql, Array.isArray(params) ? params : undefined).then(
        (r) => {
          cb?.(null, r);
          return r;
        },
        (e: Error) => {
          cb?.(e);
          throw e;
        },
      );
    }

    release = (_err?: unknown): void => {
      if (this.released) return;
      this.released = true;
      if (this.inTransaction) {
        this.inTransaction = false;
        session.run('ROLLBACK', undefined).then(
          () => this.unlock(),
          () => this.unlock(),
        );
      } else {
        this.unlock();
      }
    };
  }

  class Pool extends EventEmitter {
    // TypeORM passes pg connection options; there is nothing to connect to.
    constructor(_options?: unknown) {
      super();
    }

    get totalCount(): number {
      return 1;
    }
    get waitingCount(): number {
      return lock.queued;
    }

    connect(): Promise<Client>;
    connect(cb: (err: Error | null, client?: Client, release?: (err?: unknown) => void) => void): void;
    connect(cb?: (err: Error | null, client?: Client, release?: (err?: unknown) => void) => void): Promise<Client> | void {
      const p = lock.acquire().then((unlock) => new Client(unlock));
      if (!cb) return p;
      p.then(
        (c) => cb(null, c, c.release),
        (e: Error) => cb(e),
      );
    }

    async query(sql: string, params?: unknown[], cb?: QueryCallback): Promise<PgResult> {
      const client = await this.connect();
      try {
        return await client.query(sql, params, cb);
      } finally {
        client.release();
      }
    }

    /** The PGlite instance is owned (and closed) by whoever created it, not by TypeORM. */
    end(cb?: (err?: Error) => void): Promise<void> {
      cb?.();
      return Promise.resolve();
    }
  }

  const driver = { Pool };
  drivers.add(driver);
  return driver;
}
