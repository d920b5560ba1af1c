import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE, lockDataDir, openPglite, PGDATA } from './embedded-postgres.js';

/**
 * One file holding an embedded data directory (docs/adr/0067): the database as PGlite dumps its data
 * directory (a gzipped tar), and the secret files beside it (the generated JWT key, the OTP secret),
 * without which a restored database's tokens and sign-in codes would be worthless. Layout: a first
 * line `bizops-backup 1`, a second line of JSON (when, the database's length and SHA-256, the secret
 * files in base64), then the database's bytes. The file holds secrets: it is written 0600.
 */
const MAGIC = 'bizops-backup 1';

interface Header {
  readonly created_at: string;
  readonly database: { readonly format: 'pglite-datadir-tar-gzip'; readonly bytes: number; readonly sha256: string };
  readonly files: Readonly<Record<string, string>>;
}

export class BackupRefused extends Error {
  override readonly name = 'BackupRefused';
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * Writes `file` from `dataDir`, holding the directory's lock meanwhile (a server holding it refuses
 * this with DataDirectoryInUse). `secretFiles` are copied when present; answers those it found.
 */
export const backUpDataDir = async (dataDir: string, file: string, secretFiles: readonly string[]): Promise<{ bytes: number; files: string[] }> => {
  if (!existsSync(join(dataDir, PGDATA))) throw new BackupRefused(`${dataDir} holds no embedded database (no ${PGDATA}/): nothing to back up`);
  const unlock = lockDataDir(dataDir);
  try {
    const db = await openPglite(dataDir);
    let tarball: Uint8Array;
    try {
      tarball = new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer());
    } finally {
      await db.close();
    }
    const files = Object.fromEntries(secretFiles.filter((f) => existsSync(join(dataDir, f))).map((f) => [f, readFileSync(join(dataDir, f)).toString('base64')]));
    const header: Header = { created_at: new Date().toISOString(), database: { format: 'pglite-datadir-tar-gzip', bytes: tarball.byteLength, sha256: sha256(tarball) }, files };
    // written beside, then renamed: a backup cut short never replaces a good one
    const partial = `${file}.partial`;
    writeFileSync(partial, Buffer.concat([Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`), tarball]), { mode: 0o600 });
    chmodSync(partial, 0o600);
    renameSync(partial, file);
    return { bytes: tarball.byteLength, files: Object.keys(files) };
  } finally {
    unlock();
  }
};

/** The backup's header and database bytes, checked (a truncated or altered file is refused before anything is written). */
const readBackup = (file: string): { header: Header; database: Uint8Array } => {
  const all = readFileSync(file);
  const first = all.indexOf(0x0a);
  const second = first < 0 ? -1 : all.indexOf(0x0a, first + 1);
  if (first < 0 || second < 0 || all.subarray(0, first).toString() !== MAGIC) throw new BackupRefused(`${file} is not a backup made by \`npm run cli -- backup\``);
  let header: Header;
  try {
    header = JSON.parse(all.subarray(first + 1, second).toString()) as Header;
  } catch {
    throw new BackupRefused(`${file}: its header is damaged`);
  }
  const database = all.subarray(second + 1);
  if (header.database?.format !== 'pglite-datadir-tar-gzip' || database.byteLength !== header.database.bytes || sha256(database) !== header.database.sha256) {
    throw new BackupRefused(`${file} is truncated or damaged (its database does not match its checksum)`);
  }
  return { header, database };
};

/**
 * Fills `dataDir` (missing, or empty) from `file`: the database, then the secret files. A directory
 * holding anything is refused (a restore never merges into or overwrites a database); one a server
 * holds is refused with DataDirectoryInUse. A restore that fails midway leaves the directory empty.
 */
export const restoreDataDir = async (file: string, dataDir: string): Promise<{ files: string[] }> => {
  const { header, database } = readBackup(file);
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  try {
    const present = readdirSync(dataDir).filter((f) => f !== LOCK_FILE);
    if (present.length > 0) throw new BackupRefused(`${dataDir} is not empty (${present.slice(0, 5).join(', ')}): restore fills an empty or missing data directory only`);
    try {
      const db = await openPglite(dataDir, new Blob([database as Uint8Array<ArrayBuffer>]));
      try {
        await db.query('select 1');
      } finally {
        await db.close();
      }
      for (const [name, base64] of Object.entries(header.files)) {
        if (name.includes('/') || name.includes('\\') || name.startsWith('.')) throw new BackupRefused(`${file}: a file name ${JSON.stringify(name)} is not allowed`);
        writeFileSync(join(dataDir, name), Buffer.from(base64, 'base64'), { mode: 0o600, flag: 'wx' });
      }
    } catch (e) {
      for (const f of readdirSync(dataDir)) if (f !== LOCK_FILE) rmSync(join(dataDir, f), { recursive: true, force: true });
      throw e;
    }
    return { files: Object.keys(header.files) };
  } finally {
    unlock();
  }
};
