import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../adapters/persistence/mikro-orm/embedded-postgres.js';
import { upstreamOf } from '../support/tcp-proxy.js';

/** Tries to open the database's socket as user `nobody`: 'connected' or the error code. */
const connectAsNobody = (databaseUrl: string) =>
  new Promise<string>((resolve, reject) => {
    const target = JSON.stringify(upstreamOf(databaseUrl));
    const child = spawn(
      process.execPath,
      ['-e', `const s = require('node:net').connect(${target}); s.on('connect', () => { console.log('connected'); s.destroy(); }); s.on('error', (e) => console.log(e.code));`],
      { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'], cwd: '/' },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim()));
  });

// Issue 21: the embedded database (no password) listened on a loopback TCP port any local process could use.
describe('the embedded database socket', function () {
  this.timeout(60_000);

  it('is a Unix socket in DATA_DIR/run, a directory only this user can enter, and works for the app', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-sock-'));
    chmodSync(dataDir, 0o755); // the data directory itself open: the socket's own directory must be the gate
    const embedded = await startEmbeddedPostgres({ dataDir, maxConnections: 4 });
    try {
      const url = new URL(embedded.url);
      expect(url.searchParams.get('host'), 'a socket directory, not a TCP host').to.equal(join(dataDir, 'run'));
      const dir = statSync(join(dataDir, 'run'));
      expect(dir.mode & 0o777, 'mode of DATA_DIR/run').to.equal(0o700);
      expect(dir.uid).to.equal(process.getuid!());
      expect(statSync(join(dataDir, 'run', '.s.PGSQL.5432')).isSocket()).to.equal(true);

      const client = new pg.Client({ connectionString: embedded.url });
      await client.connect();
      try {
        expect((await client.query('select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
      } finally {
        await client.end();
      }

      // Another local user is refused by the file system (only root can act as another user).
      if (process.getuid!() === 0) expect(await connectAsNobody(embedded.url)).to.equal('EACCES');
    } finally {
      await embedded.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('without a data directory (or one whose path is too long for a socket) uses a private temporary directory, removed on close', async () => {
    const longDir = join(mkdtempSync(join(tmpdir(), 'bizops-sock-')), 'x'.repeat(90));
    for (const dataDir of [undefined, longDir]) {
      const embedded = await startEmbeddedPostgres({ ...(dataDir ? { dataDir } : {}), maxConnections: 2 });
      const socketDir = new URL(embedded.url).searchParams.get('host')!;
      try {
        expect(socketDir.startsWith(tmpdir())).to.equal(true);
        expect(statSync(socketDir).mode & 0o777).to.equal(0o700);
        const client = new pg.Client({ connectionString: embedded.url });
        await client.connect();
        await client.end();
      } finally {
        await embedded.close();
      }
      expect(() => statSync(socketDir)).to.throw(/ENOENT/);
    }
    rmSync(join(longDir, '..'), { recursive: true, force: true });
  });
});
