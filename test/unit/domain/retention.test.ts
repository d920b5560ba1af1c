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
