import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite does not lock its files; a second process on the same folder would diverge and lose writes.
 * We take an exclusive lock file holding our pid. A lock left by a process that no longer exists
 * (crash, kill -9) is stale and taken over.
 */
export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another Taleforge process (pid ${pid}) is already using the data folder ${dataDir}.\n` +
        `Stop it first, or start this one with a different DATA_DIR (or a DATABASE_URL for several instances).`,
    );
    this.name = 'DataDirLockedError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Folders this process holds: a second open from the same process is refused too. */
const held = new Set<string>();

export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'taleforge.lock');
  if (held.has(file)) throw new DataDirLockedError(dataDir, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      held.add(file);
      return () => {
        if (released) return;
        released = true;
        held.delete(file);
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      // Our own pid in a leftover file means a previous life of a container's PID 1: stale.
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new DataDirLockedError(dataDir, pid);
      }
      fs.rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
