import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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
 * Starts PGlite (in `dataDir`, or in memory when undefined) behind a loopback PostgreSQL socket,
 * so the one MikroORM/pg adapter serves both the embedded default and a real server.
 * `maxConnections` must be at least the ORM pool's max, or surplus connections are reset.
 */
export const startEmbeddedPostgres = async (options: { dataDir?: string; maxConnections: number }): Promise<EmbeddedPostgres> => {
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  try {
    const extensions = { pg_trgm }; // product search uses trigram indexes
    const db = await PGlite.create(options.dataDir ? { dataDir: join(options.dataDir, 'pgdata'), extensions } : { extensions });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections });
    await server.start();
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      async close() {
        await server.stop();
        await db.close();
        unlock();
      },
    };
  } catch (e) {
    unlock();
    throw e;
  }
};

