import { stopTestDatabase, testDatabase } from './database.js';

/** Root hooks: say which database the run uses, and stop it at the end. */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    const db = await testDatabase();
    // eslint-disable-next-line no-console
    console.log(`      test database: ${db.kind}`);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopTestDatabase();
  },
};
