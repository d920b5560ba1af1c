import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { entryPoint } from '../support/server-process.js';
import { startEmbeddedPostgres } from '../../adapters/persistence/sql/embedded-postgres.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';
import { randomUUID } from 'node:crypto';
import { PermanentJobFailure } from '../../application/ports/job-queue.js';
import { pgBossJobQueue } from '../../adapters/jobs/pg-boss.job-queue.js';

const run = promisify(execFile);

/** Runs `npm run cli -- args` the way an operator does (tsx bootstrap/cli.ts), with the given environment. */
const cli = async (args: string[], env: Record<string, string>) => {
  try {
    const { stdout, stderr } = await run(process.execPath, [...entryPoint('bootstrap/cli.ts'), ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
};

describe('operator CLI', function () {
  // Each case starts the CLI several times (a Node process with tsx each): seconds apiece on a busy machine.
  this.timeout(120_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('plan:set changes the plan the API reports; business:show prints the business', async () => {
    const owner = await registerOwner(app);
    const businessId = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
    const env = { DATABASE_URL: app.databaseUrl!, DATA_DIR: app.config.DATA_DIR };

    const set = await cli(['plan:set', businessId, 'PRO'], env);
    expect(set.code, set.stderr).to.equal(0);
    expect(set.stdout).to.contain('is now on PRO');
    expect((await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.plan).to.equal('PRO');

    const show = await cli(['business:show', businessId], env);
    expect(show.code, show.stderr).to.equal(0);
    const overview = JSON.parse(show.stdout);
    expect(overview.business).to.include({ id: businessId, plan: 'PRO', name: 'Ada Stores' });
    expect(overview.members).to.have.length(1);
    expect(overview.members[0]).to.include({ role: 'BUSINESS_OWNER', status: 'ACTIVE' });
    expect(overview.members[0].first_name).to.equal('Ada');
    expect(overview.branches[0].is_default).to.equal(true);
    expect(show.stdout).to.not.match(/"[a-z]+[A-Z][A-Za-z]*":/); // snake_case keys only, like the API

    expect((await cli(['plan:set', businessId, 'GOLD'], env)).code).to.equal(2);
    expect((await cli(['plan:set', '00000000-0000-4000-8000-000000000000', 'PRO'], env)).code).to.equal(1);
    expect((await cli(['frobnicate'], env)).code).to.equal(2);
    const help = await cli(['--help'], env);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.contain('plan:set');
  });

  it('partner:create prints the partner code and its first API key once; the key works over HTTP', async () => {
    const env = { DATABASE_URL: app.databaseUrl!, DATA_DIR: app.config.DATA_DIR };
    const made = await cli(['partner:create', 'Moniepoint Lagos'], env);
    expect(made.code, made.stderr).to.equal(0);
    const out = JSON.parse(made.stdout);
    expect(out).to.include({ name: 'Moniepoint Lagos' });
    expect(out.code).to.match(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(out.api_key).to.match(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(made.stderr).to.contain('not shown again');
    const keys = await app.request('GET', '/partner/api-keys', { headers: { 'x-api-key': out.api_key } });
    expect(keys.status, keys.text).to.equal(200);
    expect(keys.body.data.content).to.have.length(1);
    expect(keys.body.data.content[0]).to.include({ prefix: out.api_key.slice(0, 12), status: 'ACTIVE', expires_at: null });
    expect(keys.text).to.not.contain(out.api_key);
    expect((await cli(['partner:create', '  '], env)).code).to.equal(2);
  });

  it('jobs:dead lists the dead jobs, with their queue, id, error and no data', async function () {
    this.timeout(60_000);
    const queue = pgBossJobQueue({ connectionString: app.databaseUrl!, poolMax: 1, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 60, stopTimeoutMs: 1_000 });
    queue.define({ queue: 'cli-probe', retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 10, handle: async () => Promise.reject(new PermanentJobFailure('refused for good')) });
    await queue.start({ workers: true });
    const id = randomUUID();
    try {
      await queue.enqueue('cli-probe', [{ id, data: { secret: 'do-not-print' } }]);
      for (let i = 0; i < 200 && (await queue.dead(10)).every((j) => j.id !== id); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await queue.stop();
    }
    const dead = await cli(['jobs:dead'], { DATABASE_URL: app.databaseUrl!, DATA_DIR: app.config.DATA_DIR });
    expect(dead.code, dead.stderr).to.equal(0);
    const line = dead.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((j) => j.id === id);
    expect(line).to.include({ queue: 'cli-probe', type: null });
    expect(line.error).to.equal('PermanentJobFailure: refused for good');
    expect(dead.stdout).to.not.include('do-not-print');
  });

  it('on the embedded default: works while no server holds the data directory, refuses clearly while one does', async function () {
    this.timeout(90_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-cli-'));
    const migrated = await cli(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(migrated.code, migrated.stderr).to.equal(0);

    const server = await startEmbeddedPostgres({ dataDir, maxConnections: 4 }); // stands in for a running server
    try {
      const refused = await cli(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.contain(`in use by process ${process.pid}`);
    } finally {
      await server.close();
    }
    expect((await cli(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: '' })).code).to.equal(0);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
