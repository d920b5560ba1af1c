import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** A postgres:// URL the ordinary `pg` driver connects to. */
  readonly url: string;
  close(): Promise<void>;
}

export class DataDirectoryInUse extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`The data directory ${dataDir} is in use by process ${pid} (a running server?). Stop it first, or set DATABASE_URL.`);
  }
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** PGlite keeps one process per data directory: a lock file with our pid says who holds it. */
const lockDataDir = (dataDir: string): (() => void) => {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'embedded.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) throw new DataDirectoryInUse(dataDir, pid);
      rmSync(lockFile, { force: true }); // left behind by a process that died
    }
  }
  throw new Error(`could not lock ${lockFile}`);
};

/** A Unix socket path must fit in `sun_path` (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/**
 * The directory the socket lives in, readable by this user only (0700): PGlite has no password
 * authentication, so the file system is the gate. `DATA_DIR/run` when its path is short enough
 * for a socket, else (or without a data directory) a private temporary directory.
 */
const socketDirectory = (dataDir: string | undefined): { dir: string; remove: boolean } => {
  const inData = dataDir ? join(dataDir, 'run') : undefined;
  if (inData && join(inData, '.s.PGSQL.5432').length <= MAX_SOCKET_PATH) {
    mkdirSync(inData, { recursive: true, mode: 0o700 });
    chmodSync(inData, 0o700); // an older directory keeps its mode otherwise
    rmSync(join(inData, '.s.PGSQL.5432'), { force: true }); // left by a process that died (we hold the lock)
    return { dir: inData, remove: false };
  }
  return { dir: mkdtempSync(join(tmpdir(), 'bizops-pg-')), remove: true }; // mkdtemp makes it 0700
};

/**
 * Starts PGlite (in `dataDir`, or in memory when undefined) behind a PostgreSQL Unix socket in a
 * directory only this user can enter, so the one MikroORM/pg adapter serves both the embedded
 * default and a real server, and no other local user can reach the database (it has no password).
 * `maxConnections` must be at least the ORM pool's max, or surplus connections are reset.
 */
export const startEmbeddedPostgres = async (options: { dataDir?: string; maxConnections: number }): Promise<EmbeddedPostgres> => {
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  let socket: { dir: string; remove: boolean } | undefined;
  try {
    const extensions = { pg_trgm }; // product search uses trigram indexes
    const db = await PGlite.create(options.dataDir ? { dataDir: join(options.dataDir, 'pgdata'), extensions } : { extensions });
    socket = socketDirectory(options.dataDir);
    const path = join(socket.dir, '.s.PGSQL.5432');
    const server = new PGLiteSocketServer({ db, path, maxConnections: options.maxConnections });
    await server.start();
    const dir = socket;
    return {
      // libpq's form for a socket directory; pg reads `host`, openOrm hands it to the pool
      url: `postgres://postgres@localhost:5432/postgres?host=${encodeURIComponent(dir.dir)}`,
      async close() {
        await server.stop();
        await db.close();
        rmSync(dir.remove ? dir.dir : path, { recursive: true, force: true });
        unlock();
      },
    };
  } catch (e) {
    if (socket?.remove) rmSync(socket.dir, { recursive: true, force: true });
    unlock();
    throw e;
  }
};
