import { rmSync } from 'node:fs';
import { makeEmbeddedTemplate, setUpTestDatabaseServer, tearDownTestDatabaseServer, testDatabase, testRunId } from './database.js';
import { buildForTestRun, stopAllServers, testRunDir } from './server-process.js';

/**
 * Root hooks (a root-hook plugin: mocha runs it in each parallel worker, and root before-all /
 * after-all hooks there run once per file, docs/adr/0048). The database is this process's own
 * (test/support/database.ts); a server process a file started and left running is killed after it.
 */
let said = false;
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    const db = await testDatabase();
    if (said) return;
    said = true;
    // eslint-disable-next-line no-console
    console.log(`      test database: ${db.kind} (process ${process.pid})`);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopAllServers();
  },
};

/** Once per run, in the main mocha process (not in the workers, which inherit its environment). */
export const mochaGlobalSetup = async function (this: unknown) {
  const dir = testRunDir(testRunId());
  // side by side: the build is another process, the template this one's PGlite
  await Promise.all([buildForTestRun(dir), makeEmbeddedTemplate(dir), setUpTestDatabaseServer()]);
};
export const mochaGlobalTeardown = async function (this: unknown) {
  rmSync(testRunDir(testRunId()), { recursive: true, force: true });
  await tearDownTestDatabaseServer();
};
