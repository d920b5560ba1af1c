import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { startEmbeddedPostgres } from '../../adapters/persistence/mikro-orm/embedded-postgres.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);

/** Runs `npm run cli -- args` the way an operator does (tsx bootstrap/cli.ts), with the given environment. */
const cli = async (args: string[], env: Record<string, string>) => {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'bootstrap/cli.ts', ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
};

describe('operator CLI', () => {
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
    // snake_case, exactly as the API answers
    const api = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data;
    const { plan_usage: _usage, ...apiBusiness } = api;
    expect(overview.business).to.deep.equal(apiBusiness);
    expect(overview.members).to.have.length(1);
    expect(overview.members[0]).to.include({ role: 'BUSINESS_OWNER', status: 'ACTIVE', first_name: 'Ada' });
    expect(overview.branches[0].is_default).to.equal(true);
    expect(JSON.stringify(overview)).not.to.match(/"[a-z]+[A-Z][A-Za-z]*":/); // no camelCase key anywhere

    expect((await cli(['plan:set', businessId, 'GOLD'], env)).code).to.equal(2);
    expect((await cli(['plan:set', '00000000-0000-4000-8000-000000000000', 'PRO'], env)).code).to.equal(1);
    expect((await cli(['frobnicate'], env)).code).to.equal(2);
  });

  it('--help (and help, -h) prints the usage on stdout and exits 0; no command is a usage error (2)', async () => {
    for (const flag of ['--help', 'help', '-h']) {
      const help = await cli([flag], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }); // never opened
      expect(help.code, `${flag}: ${help.stderr}`).to.equal(0);
      expect(help.stdout).to.contain('usage: npm run cli -- <command>');
      expect(help.stdout).to.contain('business:show');
    }
    const none = await cli([], {});
    expect(none.code).to.equal(2);
    expect(none.stderr).to.contain('usage:');
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
