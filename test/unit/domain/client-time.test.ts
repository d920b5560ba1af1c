import { expect } from 'chai';
import fc from 'fast-check';
import { boundClientTime, CLIENT_CLOCK_SKEW_MS, previousSyncBefore, SYNC_SESSION_GAP_MS } from '../../../domain/client-time.js';

describe('the claimed time of a client-made record (domain/client-time.ts)', () => {
  const now = new Date('2026-11-20T10:00:00.000Z');
  const businessCreatedAt = new Date('2026-06-01T08:00:00.000Z');
  const at = (iso: string) => new Date(iso);

  it('keeps a time between the business\'s creation (or the device\'s previous sync) and now plus 5 minutes', () => {
    expect(CLIENT_CLOCK_SKEW_MS).to.equal(300_000);
    for (const t of ['2026-06-01T08:00:00.000Z', '2026-11-19T09:00:00.000Z', '2026-11-20T10:05:00.000Z']) {
      expect(boundClientTime(at(t), { businessCreatedAt, previousSyncAt: null, now })).to.deep.equal({ at: at(t) });
    }
  });

  it('clamps a time before the business existed to its creation', () => {
    expect(boundClientTime(at('2018-01-15T09:00:00.000Z'), { businessCreatedAt, previousSyncAt: null, now })).to.deep.equal({ at: businessCreatedAt, clamped: 'BEFORE_BUSINESS' });
  });

  it("clamps a time before the device's previous sync to that sync (the later of the two lower bounds)", () => {
    const previousSyncAt = at('2026-11-19T18:00:00.000Z');
    expect(boundClientTime(at('2026-11-19T17:59:59.999Z'), { businessCreatedAt, previousSyncAt, now })).to.deep.equal({ at: previousSyncAt, clamped: 'BEFORE_PREVIOUS_SYNC' });
    expect(boundClientTime(at('2018-01-15T09:00:00.000Z'), { businessCreatedAt, previousSyncAt, now })).to.deep.equal({ at: previousSyncAt, clamped: 'BEFORE_PREVIOUS_SYNC' });
    expect(boundClientTime(at('2018-01-15T09:00:00.000Z'), { businessCreatedAt, previousSyncAt: at('2026-01-01T00:00:00.000Z'), now })).to.deep.equal({ at: businessCreatedAt, clamped: 'BEFORE_BUSINESS' });
  });

  it('clamps a time more than 5 minutes ahead of the server to now', () => {
    expect(boundClientTime(at('2026-11-20T10:05:00.001Z'), { businessCreatedAt, previousSyncAt: null, now })).to.deep.equal({ at: now, clamped: 'IN_THE_FUTURE' });
    expect(boundClientTime(at('2099-12-31T00:00:00.000Z'), { businessCreatedAt, previousSyncAt: null, now })).to.deep.equal({ at: now, clamped: 'IN_THE_FUTURE' });
  });

  it('the previous sync is what came more than 30 minutes before now (the batches of one sync come back to back)', () => {
    expect(SYNC_SESSION_GAP_MS).to.equal(1_800_000);
    expect(previousSyncBefore(now)).to.deep.equal(at('2026-11-20T09:30:00.000Z'));
  });

  it('for any times: the result is never before either lower bound (capped at now), never after now plus the skew, and kept when inside', () => {
    const instant = fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') });
    fc.assert(
      fc.property(instant, instant, fc.option(instant), instant, (claimed, created, sync, n) => {
        const b = { businessCreatedAt: new Date(created), previousSyncAt: sync === null ? null : new Date(sync), now: new Date(n) };
        const { at: out, clamped } = boundClientTime(new Date(claimed), b);
        const lower = Math.min(Math.max(created, sync ?? -Infinity), n);
        const t = out.getTime();
        const inside = claimed >= lower && claimed <= n + CLIENT_CLOCK_SKEW_MS;
        return t >= lower && t <= n + CLIENT_CLOCK_SKEW_MS && (inside ? t === claimed && clamped === undefined : clamped !== undefined);
      }),
    );
  });
});
