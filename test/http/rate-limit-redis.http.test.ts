import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * With REDIS_URL, instances share rate-limit counters. Runs where a Redis answers: TEST_REDIS_URL,
 * else the local one on 6379 (.ci/run starts it). Where none answers, the suite is pending with the reason.
 * Every key this run writes is under a prefix of its own (ioredis keyPrefix), so runs at once on one
 * Redis never see each other's counts.
 */
const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const probe = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 500, retryStrategy: () => null });
const available = await probe.connect().then(
  async () => (await probe.ping()) === 'PONG',
  () => false,
);
probe.disconnect();

if (!available) {
  describe('rate limits shared through Redis', () => {
    it(`two instances count one identifier together (pending: no Redis answers at ${url}; set TEST_REDIS_URL)`);
  });
} else {
  describe('rate limits shared through Redis', () => {
    const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
    const clients: Redis[] = [];
    const apps: TestApp[] = [];
    const instance = async (databaseUrl?: string) => {
      const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, keyPrefix });
      clients.push(redis);
      const app = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_IDENTIFIER: '3' }, redis, ...(databaseUrl ? { databaseUrl } : {}) });
      apps.push(app);
      return app;
    };
    after(async () => {
      for (const a of apps) await a.close();
      for (const c of clients) c.disconnect();
      const raw = new Redis(url, { maxRetriesPerRequest: 1 }); // unprefixed: KEYS returns whole names
      const keys = await raw.keys(`${keyPrefix}*`);
      if (keys.length > 0) await raw.del(...keys);
      raw.disconnect();
    });

    it('two instances count one identifier together', async () => {
      const a = await instance();
      const b = await instance(a.databaseUrl);
      const phone = `+2348076${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
      const statuses: number[] = [];
      const answers: string[] = [];
      for (const app of [a, b, a, b]) {
        for (const x of [a, b]) x.clock.advance(61_000); // past the OTP resend cooldown; the rate limit keeps real time
        const res = await app.request('POST', '/auth/login', { body: { phone } });
        statuses.push(res.status);
        answers.push(res.text);
      }
      expect(statuses, answers.join('\n')).to.deep.equal([200, 200, 200, 429]);
      const keys = await clients[0]!.keys(`${keyPrefix}rl:identifier*${phone}*`);
      expect(keys.length).to.equal(1);
    });
  });
}
