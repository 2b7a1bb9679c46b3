/**
 * The embedded database's own thread (see pglite-thread.ts): owns the PGlite instance and runs the
 * driver's statements in it, one message per statement, answering in the order they came.
 */
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { ARRAY_TYPES_SQL, errorToWire, Session } from './pglite-session';
import type { ToDatabase } from './pglite-thread';

if (!parentPort) throw new Error('pglite-worker runs as a worker thread (see pglite-thread.ts)');
const port = parentPort;

let db: PGlite | null = null;
let session: Session | null = null;

function opened(): Session {
  if (!session) throw new Error('The embedded database is not open.');
  return session;
}

port.on('message', (m: ToDatabase) => {
  // Statements are not awaited one by one here: the session runs them in call order itself
  // (PGlite's own exclusive queue), and the next one is ready the moment the previous one ends.
  void handle(m).then(
    ([value, transfer]) => port.postMessage({ id: m.id, ok: true, value }, transfer),
    (e: unknown) => port.postMessage({ id: m.id, ok: false, error: errorToWire(e) }),
  );
});

async function handle(m: ToDatabase): Promise<[unknown, ArrayBuffer[]]> {
  switch (m.op) {
    case 'run': {
      // Rows are decoded by the app's thread, in its own realm: objects built here would arrive as
      // another realm's Dates and arrays after cloning (a test runner's sandbox tells them apart).
      const answer = await opened().exec(m.sql, m.params);
      // A buffer of its own, moved rather than copied (a view would clone the whole pool slab it sits in).
      const bytes = new Uint8Array(answer.byteLength);
      bytes.set(answer);
      return [bytes, [bytes.buffer]];
    }
    case 'open': {
      db = await PGlite.create({ dataDir: m.dataDir, loadDataDir: m.loadDataDir ? new Blob([m.loadDataDir]) : undefined });
      session = new Session(db);
      const rows = (await db.query<{ oid: number; typarray: number }>(ARRAY_TYPES_SQL)).rows;
      return [rows.map((r) => [r.oid, r.typarray]), []];
    }
    case 'dump': {
      if (!db) throw new Error('The embedded database is not open.');
      const bytes = new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer());
      return [bytes, [bytes.buffer as ArrayBuffer]];
    }
    case 'close':
      session = null;
      await db?.close();
      db = null;
      // Nothing more to do: the thread ends once this answer is sent.
      setImmediate(() => port.close());
      return [null, []];
  }
}
