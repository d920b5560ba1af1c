import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
export const LOCK_FILE = 'embedded.lock';
export const lockDataDir = (dataDir: string): (() => void) => {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, LOCK_FILE);
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

/** Extended-protocol messages after which the same connection must go on until its Sync. */
const MID_ROUND = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/**
 * pglite-socket serves all connections from one session, one protocol message at a time, and keeps
 * to one connection only inside a transaction. A parameterised statement is several messages (Parse,
 * Bind, Describe, Execute, Sync); when one arrives in pieces (a large Bind), another connection's
 * Parse could come between and replace the unnamed statement ("bind message supplies 3 parameters,
 * but prepared statement requires 2"). Its queue is told a round from Parse to Sync is a
 * transaction, so it waits for the rest of that connection's round (pglite-socket 0.2.x internals).
 */
const keepExtendedQueriesWhole = (server: PGLiteSocketServer, db: PGlite) => {
  const queue = (server as unknown as { queryQueue?: { db: PGlite } }).queryQueue;
  if (!queue || queue.db !== db) throw new Error('pglite-socket changed: check keepExtendedQueriesWhole');
  let midRound = false;
  queue.db = new Proxy(db, {
    get(target, property) {
      if (property === 'isInTransaction') return () => midRound || target.isInTransaction();
      if (property === 'execProtocolRawStream') {
        return async (message: Uint8Array, opts: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          try {
            return await target.execProtocolRawStream(message, opts);
          } finally {
            midRound = MID_ROUND.has(message[0]!);
          }
        };
      }
      if (property === 'exec') midRound = false; // the ROLLBACK of a connection that left mid-round
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

/** The database's own folder in a data directory. */
export const PGDATA = 'pgdata';

/** PGlite with the extensions the schema uses, in `dataDir` (in memory when undefined), filled from a data-directory tarball when given. */
export const openPglite = async (dataDir: string | undefined, loadDataDir?: Blob): Promise<PGlite> => {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
  const extensions = { pg_trgm }; // product search uses trigram indexes
  return PGlite.create({ ...(dataDir ? { dataDir: join(dataDir, PGDATA) } : {}), extensions, ...(loadDataDir ? { loadDataDir } : {}) });
};

/**
 * Starts PGlite (in `dataDir`, or in memory when undefined) behind a PostgreSQL socket, so the one
 * pg adapter serves both the embedded default and a real server. The socket is a Unix
 * socket in a fresh directory only this user may enter (0700): pglite-socket checks no password, so
 * a TCP port would let any local process in as superuser (ADR 0012). `maxConnections` must be at
 * least every connection open at once (the pool's max, the job queue's, the migrations' one while
 * they run), or surplus connections are reset (ECONNRESET). `loadDataDir`: a data-directory tarball
 * (PGlite's dumpDataDir) to start from instead of an empty cluster.
 */
export const startEmbeddedPostgres = async (options: { dataDir?: string; maxConnections: number; loadDataDir?: Blob }): Promise<EmbeddedPostgres> => {
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  try {
    // Loaded here, not at start: a server on PostgreSQL never pays for PGlite's modules.
    const [db, { PGLiteSocketServer }] = await Promise.all([openPglite(options.dataDir, options.loadDataDir), import('@electric-sql/pglite-socket')]);
    // A short path: a Unix socket's path may not exceed about 100 bytes, which a deep DATA_DIR could.
    const socketDir = mkdtempSync(join(tmpdir(), 'bizops-pg-'));
    const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: options.maxConnections });
    keepExtendedQueriesWhole(server, db);
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

