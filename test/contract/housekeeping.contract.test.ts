import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { pruneOldRows } from '../../application/housekeeping/prune-old-rows.js';
import type { RefreshToken } from '../../application/auth/ports.js';
import { notificationRequested } from '../../domain/events.js';
import type { OtpCode } from '../../domain/otp.js';
import { NO_BRANDING } from '../../domain/partner.js';
import { DEFAULT_RETENTION } from '../../domain/retention.js';
import type { DeliveryStatus, WebhookEndpoint } from '../../domain/webhook.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aSession, NOW, seedTenant } from '../support/builders.js';

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR);

/**
 * Retention and the operator's readings on both adapters (docs/adr/0068): each kind of row is pruned
 * past its age and only then, a batch at a time; what is still of use (an undelivered or given-up
 * event, a live session, a pending delivery, a key within its 24 h) stays.
 */
const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`housekeeping contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    /** An event recorded at `at`, delivered (or given up) at `settled`, or left waiting. */
    const anEvent = async (at: Date, settled: { at: Date; outcome: 'delivered' | 'given_up' } | 'waiting', businessId: string) => {
      const [id] = await p.uow.run((r) => r.events.record(at, notificationRequested(businessId, randomUUID())));
      if (settled === 'waiting') return id!;
      const [claimed] = await p.outbox.claim({ now: at, leaseUntil: new Date(at.getTime() + 60_000), limit: 1, ids: [id!] });
      expect(claimed?.id).to.equal(id);
      await p.outbox.settle(settled.at, [settled.outcome === 'delivered' ? { id: id!, outcome: 'delivered', payload: {} } : { id: id!, outcome: 'given_up', error: 'x', deliveredTo: [], payload: {} }]);
      return id!;
    };
    const aToken = (userId: string, familyId: string): RefreshToken => ({
      id: randomUUID(), familyId, userId, tokenHash: randomUUID(), expiresAt: ago(-24), createdAt: ago(24 * 40), rotatedAt: null, revokedAt: null,
    });
    const anOtp = (createdAt: Date): OtpCode => ({
      id: randomUUID(), identifierKey: `phone:+23480${randomUUID().slice(0, 8)}`, purpose: 'SIGN_IN', codeHash: 'h', createdAt, expiresAt: new Date(createdAt.getTime() + 600_000),
      requestedBy: null, wrongTries: 0, consumedAt: null,
    });

    it('prunes only what is past its age, and says how many of each; a second run finds nothing', async () => {
      const shop = await seedTenant(p.uow);
      const businessId = shop.business.id;
      const userId = shop.user.id;
      // outbox: delivered 8 days ago (goes), delivered 1 h ago (stays), given up 8 days ago and waiting since 9 days (stay)
      await anEvent(ago(24 * 9), { at: ago(24 * 8), outcome: 'delivered' }, businessId);
      await anEvent(ago(2), { at: ago(1), outcome: 'delivered' }, businessId);
      await anEvent(ago(24 * 9), { at: ago(24 * 8), outcome: 'given_up' }, businessId);
      const waiting = ago(24 * 9 + 1);
      await anEvent(waiting, 'waiting', businessId);

      // sessions: expired 8 days ago and signed out 8 days ago (go, with their tokens); signed out 1 h ago and live (stay)
      const expired = aSession(userId, { createdAt: ago(24 * 40), expiresAt: ago(24 * 8) });
      const signedOut = aSession(userId, { revokedAt: ago(24 * 8) });
      const recent = aSession(userId, { revokedAt: ago(1) });
      const live = aSession(userId);
      const tokens = [expired, signedOut, recent, live].map((s) => aToken(userId, s.id));
      await p.uow.run(async (r) => {
        for (const s of [expired, signedOut, recent, live]) await r.sessions.add(s);
        for (const t of tokens) await r.refreshTokens.add(t);
      });

      // sign-in codes: made 2 days ago (go) and 10 minutes ago (stay)
      const [oldCode, newCode] = [anOtp(ago(48)), anOtp(ago(1 / 6))];
      await p.uow.run(async (r) => {
        await r.otps.add(oldCode);
        await r.otps.add(newCode);
      });

      // webhook deliveries: settled 31 days ago (go), pending 31 days ago (stays: still being tried), settled 2 days ago (stays)
      const partnerId = randomUUID();
      const endpoint: WebhookEndpoint = {
        id: randomUUID(), partnerId, url: 'https://hooks.example.com/a', description: null, events: ['sale.created'], secret: 'whsec_x', previousSecret: null,
        previousSecretUntil: null, status: 'ACTIVE', failingSince: null, lastError: null, createdAt: ago(24 * 40), updatedAt: ago(24 * 40),
      };
      const delivery = (status: DeliveryStatus, createdAt: Date) => ({
        id: randomUUID(), partnerId, endpointId: endpoint.id, messageId: `msg_${randomUUID()}`, event: 'sale.created', payload: '{}', status, attempts: 1,
        nextAttemptAt: status === 'PENDING' ? NOW : null, lastAttemptAt: createdAt, responseCode: 200, durationMs: 5, lastError: null, createdAt, outboxId: randomUUID(), traceparent: null,
      });
      const deliveries = [delivery('SUCCEEDED', ago(24 * 31)), delivery('FAILED', ago(24 * 31)), delivery('PENDING', ago(24 * 31)), delivery('SUCCEEDED', ago(48))];
      await p.uow.run(async (r) => {
        await r.partners.add({ id: partnerId, name: 'P', code: `H${randomUUID().slice(0, 7).toUpperCase().replace(/[^A-Z2-9]/g, 'A')}`, status: 'ACTIVE', branding: NO_BRANDING, createdAt: ago(24 * 40), updatedAt: ago(24 * 40) });
        await r.webhookEndpoints.add(endpoint);
        await r.webhookDeliveries.add(deliveries);
      });

      // idempotency keys: first used 25 h ago (goes) and 23 h ago (stays)
      for (const [key, at] of [['old-key', ago(25)], ['new-key', ago(23)]] as const) {
        const claim = await p.idempotency.claim(businessId, key, 'hash', at);
        expect(claim.state).to.equal('claimed');
        expect(await p.idempotency.complete(businessId, key, (claim as { token: string }).token, { status: 201, body: { ok: true } })).to.equal(true);
      }

      const prune = pruneOldRows({ uow: p.uow, idempotency: p.idempotency, clock: { now: () => NOW } });
      const report = await prune({ ages: DEFAULT_RETENTION, batch: 100, maxBatches: 10 });
      expect(report).to.deep.equal({ deliveredEventsHours: 1, endedSessionsHours: 2, otpHours: 1, webhookDeliveriesHours: 2, idempotencyKeyHours: 1 });
      expect(await prune({ ages: DEFAULT_RETENTION, batch: 100, maxBatches: 10 })).to.deep.equal({ deliveredEventsHours: 0, endedSessionsHours: 0, otpHours: 0, webhookDeliveriesHours: 0, idempotencyKeyHours: 0 });

      expect((await p.uow.read((r) => r.housekeeping.oldestUndeliveredEvent()))?.getTime()).to.equal(waiting.getTime());
      const tokenKept = await p.uow.run(async (r) => Promise.all(tokens.map(async (t) => (await r.refreshTokens.findByHashForUpdate(t.tokenHash)) !== undefined)));
      expect(tokenKept).to.deep.equal([false, false, true, true]);
      expect(await p.uow.read((r) => r.otps.latest(oldCode.identifierKey, 'SIGN_IN'))).to.equal(undefined);
      expect((await p.uow.read((r) => r.otps.latest(newCode.identifierKey, 'SIGN_IN')))?.id).to.equal(newCode.id);
      const kept = await p.uow.read(async (r) => Promise.all(deliveries.map(async (d) => (await r.webhookDeliveries.findById(partnerId, d.id)) !== undefined)));
      expect(kept).to.deep.equal([false, false, true, true]);
      expect((await p.idempotency.claim(businessId, 'new-key', 'hash', NOW)).state).to.equal('replay');
    });

    it('deletes at most a batch a statement and `maxBatches` statements a run: a backlog goes over several runs', async () => {
      const shop = await seedTenant(p.uow);
      for (let i = 0; i < 5; i++) await p.uow.run((r) => r.otps.add(anOtp(ago(24 * 400 + i))));
      const prune = pruneOldRows({ uow: p.uow, idempotency: p.idempotency, clock: { now: () => NOW } });
      expect((await prune({ ages: DEFAULT_RETENTION, batch: 2, maxBatches: 1 })).otpHours).to.equal(2);
      expect((await prune({ ages: DEFAULT_RETENTION, batch: 2, maxBatches: 10 })).otpHours).to.equal(3);
      void shop;
    });

    it('readings: the oldest waiting event (null when none waits) and endpoints by status', async () => {
      const counts = await p.uow.read((r) => r.housekeeping.webhookEndpointCounts());
      expect(Object.keys(counts).sort()).to.deep.equal(['ACTIVE', 'DISABLED', 'FAILING']);
      expect(counts.ACTIVE).to.be.at.least(1);
    });
  });

contract('in memory', async () => inMemory());
contract('PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));

describe('housekeeping on PostgreSQL: a batch skips rows a transaction holds, and never waits for them', function () {
  this.timeout(60_000);
  if (!process.env.TEST_DATABASE_URL) {
    // PGlite serves every connection from one session: a second transaction cannot hold a row apart
    it('a sign-in code locked by a request stays; the others go at once (pending: row locks between sessions need a PostgreSQL server, TEST_DATABASE_URL)');
    return;
  }
  it('a sign-in code locked by a request stays; the others go at once', async () => {
    const url = await freshDatabaseUrl();
    const p = await openPostgres({ databaseUrl: url, dataDir: '/tmp', poolMax: 4, log: () => undefined });
    const pg = (await import('pg')).default;
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      const codes = [0, 1, 2].map((i) => ({
        id: randomUUID(), identifierKey: `phone:+2348000000${i}`, purpose: 'SIGN_IN' as const, codeHash: 'h', createdAt: ago(48), expiresAt: ago(47), requestedBy: null, wrongTries: 0, consumedAt: null,
      }));
      await p.uow.run(async (r) => {
        for (const c of codes) await r.otps.add(c);
      });
      await holder.query('begin');
      await holder.query('select id from otp_codes where id = $1 for update', [codes[0]!.id]);
      const started = Date.now();
      expect(await p.uow.run((r) => r.housekeeping.pruneOldOtps(ago(24), 100))).to.equal(2);
      expect(Date.now() - started).to.be.below(5_000);
      await holder.query('commit');
      expect((await p.uow.read((r) => r.otps.latest(codes[0]!.identifierKey, 'SIGN_IN')))?.id).to.equal(codes[0]!.id);
    } finally {
      await holder.end();
      await p.close();
    }
  });
});

describe('housekeeping on an empty database', () => {
  it('no waiting event: null', async () => {
    const p = inMemory();
    expect(await p.uow.read((r) => r.housekeeping.oldestUndeliveredEvent())).to.equal(null);
    expect(await p.uow.read((r) => r.housekeeping.webhookEndpointCounts())).to.deep.equal({ ACTIVE: 0, FAILING: 0, DISABLED: 0 });
  });
});
