import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { spawnModuleWorker } from '../common/module-worker';
import { decodeAnswer, errorFromWire, parsersFor, Session, type Parsers, type PgResult, type SessionRunner, type WireError } from './pglite-session';

/**
 * The embedded database (PGlite) on a thread of its own.
 *
 * PGlite is PostgreSQL compiled to WebAssembly: every statement — planning, executing, writing its
 * pages to the data folder — is synchronous work on the thread that owns the instance. On the app's
 * thread that was about a third of the event loop's time under load (measured in the story bench),
 * time in which no request, WebSocket frame or chapter chunk moved. Here the instance lives in a
 * worker thread: the app's thread only sends a statement and receives its rows, the database works
 * meanwhile on the machine's other core, and to the app a statement is an I/O wait like any on
 * PostgreSQL. Still one session whose statements run one at a time (the driver's mutex and the
 * worker's order), so everything pglite-pool.ts promises holds unchanged.
 *
 * The hand-off is not free: each statement is two messages between threads, and in the story bench
 * on a 2-core VM the process spends about a fifth more CPU per chapter — in exchange, first chunks
 * under load arrive about a third sooner. PGLITE_THREAD=main keeps PGlite on the app's thread, for
 * hosts without a core to spare.
 */
export type ToDatabase = { id: number } & (
  { op: 'open'; dataDir?: string; loadDataDir?: Uint8Array } | { op: 'run'; sql: string; params: unknown[] | undefined } | { op: 'dump' } | { op: 'close' }
);
type FromDatabase = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };
type Request = { [K in ToDatabase['op']]: Omit<Extract<ToDatabase, { op: K }>, 'id'> }[ToDatabase['op']];

export interface PGliteThreadOptions {
  /** The data folder; undefined → in memory. */
  dataDir?: string;
  /** A dump (dumpDataDir) to start from. */
  loadDataDir?: Blob;
}

/** The embedded database as the app holds it, wherever PGlite runs. */
export interface EmbeddedDatabase extends SessionRunner {
  /** The data folder as a gzipped tarball (PGlite's dumpDataDir), e.g. a migrated template for tests. */
  dumpDataDir(): Promise<Blob>;
  /** Closes PGlite, flushing its files. */
  close(): Promise<void>;
  /** How busy the database's own thread has been (diagnostics); null when it runs on the app's thread. */
  utilization(since?: EventLoopUtilization): EventLoopUtilization | null;
}

/** Opens PGlite on its own thread (`worker`) or on this one (`main`): see the top of this file. */
export async function openEmbedded(options: PGliteThreadOptions & { thread: 'worker' | 'main' }): Promise<EmbeddedDatabase> {
  if (options.thread === 'worker') return PGliteThread.open(options);
  const db = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  const session = new Session(db);
  return {
    run: (sql, params) => session.run(sql, params),
    dumpDataDir: async () => db.dumpDataDir('gzip'),
    close: () => db.close(),
    utilization: () => null,
  };
}

export class PGliteThread implements EmbeddedDatabase {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private seq = 0;
  /** Set once the thread is gone (closed, or died): every later call fails with it. */
  private stopped: Error | null = null;
  private readonly exited: Promise<void>;
  private closing = false;
  private parsers: Parsers = parsersFor([]);

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (m: FromDatabase) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      // The thread keeps the process alive only while an answer is awaited, like a socket with a
      // query in flight: an idle database never holds the process open.
      if (this.pending.size === 0 && !this.closing) this.worker.unref();
      if (m.ok) p.resolve(m.value);
      else p.reject(errorFromWire(m.error));
    });
    // A crash inside the thread (out of memory, a bug in the module): every waiting call fails
    // instead of hanging, and so does every later one.
    worker.on('error', (e) => this.stop(e));
    this.exited = new Promise((resolve) =>
      worker.once('exit', () => {
        this.stop(new Error('The embedded database stopped.'));
        resolve();
      }),
    );
  }

  static async open(options: PGliteThreadOptions): Promise<PGliteThread> {
    const thread = new PGliteThread(spawnModuleWorker(__filename, 'pglite-worker'));
    const loadDataDir = options.loadDataDir ? new Uint8Array(await options.loadDataDir.arrayBuffer()) : undefined;
    try {
      const arrayTypes = await thread.call({ op: 'open', dataDir: options.dataDir, loadDataDir }, loadDataDir ? [loadDataDir.buffer as ArrayBuffer] : []);
      thread.parsers = parsersFor(arrayTypes as Array<[number, number]>);
    } catch (e) {
      await thread.worker.terminate();
      throw e;
    }
    return thread;
  }

  async run(sql: string, params: unknown[] | undefined): Promise<PgResult> {
    const answer = (await this.call({ op: 'run', sql, params })) as Uint8Array;
    return decodeAnswer(sql, Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), this.parsers);
  }

  /** The data folder as a gzipped tarball (PGlite's dumpDataDir), e.g. a migrated template for tests. */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([(await this.call({ op: 'dump' })) as Uint8Array<ArrayBuffer>]);
  }

  /** How busy the database's thread has been (diagnostics: worker_threads' eventLoopUtilization). */
  utilization(since?: EventLoopUtilization): EventLoopUtilization {
    return this.worker.performance.eventLoopUtilization(since);
  }

  /** Closes PGlite (flushing its files) and ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    if (this.closing) return this.exited;
    // Held until the thread has ended: closing is work the process must wait for.
    this.closing = true;
    this.worker.ref();
    try {
      await this.call({ op: 'close' });
    } finally {
      const timer = setTimeout(() => void this.worker.terminate(), 5000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  private call(request: Request, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id } as ToDatabase, transfer);
    });
  }

  private stop(e: Error): void {
    this.stopped ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
