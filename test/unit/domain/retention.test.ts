import { expect } from 'chai';
import { DEFAULT_RETENTION, RETENTION_FLOORS, retentionCutoffs } from '../../../domain/retention.js';

describe('retention ages (domain/retention.ts, docs/adr/0068)', () => {
  const now = new Date('2026-12-01T12:00:00.000Z');
  const hoursBefore = (d: Date) => (now.getTime() - d.getTime()) / 3_600_000;

  it('cuts each kind at now less its age', () => {
    const c = retentionCutoffs(now, DEFAULT_RETENTION);
    expect(hoursBefore(c.deliveredEventsHours)).to.equal(168);
    expect(hoursBefore(c.idempotencyKeyHours)).to.equal(24);
    expect(hoursBefore(c.webhookDeliveriesHours)).to.equal(720);
  });

  it('never cuts inside a promise: the 24 h replay, the hour the sign-in cap counts, the 72 h of webhook retries', () => {
    const c = retentionCutoffs(now, { deliveredEventsHours: 0, endedSessionsHours: 0, otpHours: 0, idempotencyKeyHours: 1, webhookDeliveriesHours: 2 });
    expect(hoursBefore(c.idempotencyKeyHours)).to.equal(24);
    expect(hoursBefore(c.otpHours)).to.equal(1);
    expect(hoursBefore(c.webhookDeliveriesHours)).to.equal(72);
    for (const k of Object.keys(RETENTION_FLOORS) as (keyof typeof RETENTION_FLOORS)[]) expect(hoursBefore(c[k]), k).to.be.at.least(RETENTION_FLOORS[k]);
  });
});

describe('retention configuration (bootstrap/config.ts)', () => {
  it('takes hours within bounds and refuses what would break a promise or overflow a date', async () => {
    const { loadConfig } = await import('../../../bootstrap/config.js');
    const c = loadConfig({});
    expect([c.RETENTION_DELIVERED_EVENTS_HOURS, c.RETENTION_ENDED_SESSIONS_HOURS, c.RETENTION_OTP_HOURS, c.RETENTION_IDEMPOTENCY_HOURS, c.RETENTION_WEBHOOK_DELIVERIES_HOURS, c.RETENTION_BATCH]).to.deep.equal([168, 168, 24, 24, 720, 500]);
    expect(() => loadConfig({ RETENTION_IDEMPOTENCY_HOURS: '23' })).to.throw(/RETENTION_IDEMPOTENCY_HOURS="23": must be an integer >= 24/);
    expect(() => loadConfig({ RETENTION_WEBHOOK_DELIVERIES_HOURS: '71' })).to.throw(/must be an integer >= 72/);
    expect(() => loadConfig({ RETENTION_OTP_HOURS: '0' })).to.throw(/RETENTION_OTP_HOURS/);
    expect(() => loadConfig({ RETENTION_OTP_HOURS: '1.5' })).to.throw(/RETENTION_OTP_HOURS/);
    expect(() => loadConfig({ RETENTION_DELIVERED_EVENTS_HOURS: '100001' })).to.throw(/at most 100000/);
    expect(() => loadConfig({ RETENTION_BATCH: '10001' })).to.throw(/RETENTION_BATCH=10001: must be at most 10000/);
    expect(() => loadConfig({ RETENTION_BATCH: '0' })).to.throw(/RETENTION_BATCH/);
    expect(loadConfig({ RETENTION_BATCH: '10000', RETENTION_DELIVERED_EVENTS_HOURS: '100000' }).RETENTION_BATCH).to.equal(10000);
  });
});
