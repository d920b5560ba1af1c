import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../adapters/persistence/sql/embedded-postgres.js';
import { codeFromLog, exited, post, startServer, stopAllServers, entryPoint } from '../support/server-process.js';
import { aPhone } from '../support/test-app.js';

const run = promisify(execFile);
const cli = async (args: string[], env: Record<string, string>) => {
  try {
    const { stdout, stderr } = await run(process.execPath, [...entryPoint('bootstrap/cli.ts'), ...args], { env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env }, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
};

/** Every table of the embedded database (ours and the job queue's) with its rows, as sorted JSON: what a restore must give back. */
const everyRow = async (dataDir: string): Promise<Record<string, string[]>> => {
  const db = await startEmbeddedPostgres({ dataDir, maxConnections: 2 });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `select quote_ident(schemaname) || '.' || quote_ident(tablename) as name from pg_tables where schemaname in ('public', 'pgboss') order by 1`,
    );
    const out: Record<string, string[]> = {};
    for (const { name } of tables) out[name] = (await client.query(`select row_to_json(t)::text as r from ${name} t`)).rows.map((r: { r: string }) => r.r).sort();
    return out;
  } finally {
    await client.end();
    await db.close();
  }
};

const stop = async (server: Awaited<ReturnType<typeof startServer>>) => {
  server.child.kill('SIGTERM');
  await exited(server.child);
};

describe('backup and restore of the embedded default (npm run cli -- backup / restore, docs/adr/0067)', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  const tmp = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  after(async () => {
    await stopAllServers();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('backs up, wipes, restores: every row is back, and the tokens signed before still work', async () => {
    const dataDir = join(tmp('bizops-backup-'), 'data');
    const file = join(tmp('bizops-backup-file-'), 'shop.bizops-backup');
    const server = await startServer({ DATA_DIR: dataDir });
    const phone = aPhone();
    expect((await post(server.base, '/auth/register', { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' })).status).to.equal(201);
    const signedIn = (await (await post(server.base, '/auth/verify-otp', { phone, otp: await codeFromLog(server.lines, phone) })).json()) as { data: { access_token: string; refresh_token: string } };
    const auth = { authorization: `Bearer ${signedIn.data.access_token}` };
    const product = (await (await post(server.base, '/products', { name: 'Peak Milk', price: 1500, quantity: 40 }, auth)).json()) as { data: { id: string } };
    const sale = await post(server.base, '/sales', { items: [{ product_id: product.data.id, quantity: 3 }], payment_method: 'CASH' }, auth);
    expect(sale.status).to.equal(201);

    // refused while the server holds the directory
    const held = await cli(['backup', file], { DATA_DIR: dataDir });
    expect(held.code, held.stderr).to.equal(1);
    expect(held.stderr).to.match(/in use by process \d+/);
    expect(existsSync(file)).to.equal(false);
    await stop(server);

    const before = await everyRow(dataDir);
    expect(before['public.sales']).to.have.length(1);
    expect(before['public.products']).to.have.length(1);
    const backedUp = await cli(['backup', file], { DATA_DIR: dataDir });
    expect(backedUp.code, backedUp.stderr).to.equal(0);
    expect(backedUp.stdout).to.contain('jwt-ed25519.pem').and.contain('otp-secret');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const key = readFileSync(join(dataDir, 'jwt-ed25519.pem'));
    const secret = readFileSync(join(dataDir, 'otp-secret'));

    rmSync(dataDir, { recursive: true, force: true });
    const restored = await cli(['restore', file], { DATA_DIR: dataDir });
    expect(restored.code, restored.stderr).to.equal(0);
    expect(readFileSync(join(dataDir, 'jwt-ed25519.pem')).equals(key)).to.equal(true);
    expect(readFileSync(join(dataDir, 'otp-secret')).equals(secret)).to.equal(true);
    expect(await everyRow(dataDir)).to.deep.equal(before);

    // a restore never merges into a directory that holds something
    const again = await cli(['restore', file], { DATA_DIR: dataDir });
    expect(again.code).to.equal(1);
    expect(again.stderr).to.contain('is not empty');

    const back = await startServer({ DATA_DIR: dataDir });
    const me = await fetch(`${back.base}/businesses/me`, { headers: auth });
    expect(me.status).to.equal(200);
    expect(((await me.json()) as { data: { name: string } }).data.name).to.equal('Ada Stores');
    const sales = (await (await fetch(`${back.base}/sales`, { headers: auth })).json()) as { data: { content: unknown[] } };
    expect(sales.data.content).to.have.length(1);
    const refreshed = await post(back.base, '/auth/refresh', { refresh_token: signedIn.data.refresh_token });
    expect(refreshed.status, await refreshed.clone().text()).to.equal(200);
    // refused while this server holds the restored directory
    const busy = await cli(['restore', file], { DATA_DIR: join(tmp('bizops-other-'), 'x') });
    expect(busy.code, busy.stderr).to.equal(0); // another, empty directory: fine
    const heldRestore = await cli(['restore', file], { DATA_DIR: dataDir });
    expect(heldRestore.code).to.equal(1);
    expect(heldRestore.stderr).to.match(/in use by process \d+/);
    await stop(back);
  });

  it('refuses a damaged file, a missing one, a directory with no database, and PostgreSQL', async () => {
    const dataDir = join(tmp('bizops-restore-'), 'data');
    const bad = join(tmp('bizops-bad-'), 'bad');
    writeFileSync(bad, 'bizops-backup 1\n{"created_at":"x","database":{"format":"pglite-datadir-tar-gzip","bytes":10,"sha256":"00"},"files":{}}\nshort');
    const damaged = await cli(['restore', bad], { DATA_DIR: dataDir });
    expect(damaged.code).to.equal(1);
    expect(damaged.stderr).to.contain('truncated or damaged');
    expect(existsSync(join(dataDir, 'pgdata'))).to.equal(false);
    expect((await cli(['restore', join(tmpdir(), 'no-such-backup')], { DATA_DIR: dataDir })).code).to.equal(1);
    const empty = await cli(['backup', join(tmpdir(), 'x.bizops-backup')], { DATA_DIR: tmp('bizops-empty-') });
    expect(empty.code).to.equal(1);
    expect(empty.stderr).to.contain('nothing to back up');
    const onPostgres = await cli(['backup', bad], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' });
    expect(onPostgres.code).to.equal(1);
    expect(onPostgres.stderr).to.contain('pg_dump');
    expect((await cli(['backup'], {})).code).to.equal(2);
  });
});
