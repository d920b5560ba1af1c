import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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

/**
 * Starts PGlite (in `dataDir`, or in memory when undefined) behind a PostgreSQL socket, so the one
 * MikroORM/pg adapter serves both the embedded default and a real server. The socket is a Unix
 * socket in a fresh directory only this user may enter (0700): pglite-socket checks no password, so
 * a TCP port would let any local process in as superuser (ADR 0012). `maxConnections` must be at
 * least the ORM pool's max, or surplus connections are reset.
 */
export const startEmbeddedPostgres = async (options: { dataDir?: string; maxConnections: number }): Promise<EmbeddedPostgres> => {
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  try {
    const extensions = { pg_trgm }; // product search uses trigram indexes
    const db = await PGlite.create(options.dataDir ? { dataDir: join(options.dataDir, 'pgdata'), extensions } : { extensions });
    // A short path: a Unix socket's path may not exceed about 100 bytes, which a deep DATA_DIR could.
    const socketDir = mkdtempSync(join(tmpdir(), 'bizops-pg-'));
    const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: options.maxConnections });
    await server.start();
    return {
      // pg reads a percent-encoded host that is a path as the directory of a Unix socket
      url: `postgres://postgres@${encodeURIComponent(socketDir)}/postgres`,
      async close() {
        await server.stop();
        await db.close();
        rmSync(socketDir, { recursive: true, force: true });
        unlock();
      },
    };
  } catch (e) {
    unlock();
    throw e;
  }
};

