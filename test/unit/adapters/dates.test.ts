import { expect } from 'chai';
import { isCalendarDay, parseInstant } from '../../../adapters/http/dates.js';
import { reportPeriod } from '../../../application/report-exports/report.js';

// Issue 32 (docs/adr/0047): the one parser of dates and date-times at the JSON edge.
describe('dates at the JSON edge', () => {
  it('a day is on the calendar or refused: months 01-12, the month\'s own last day, 29 February in leap years only', () => {
    for (const d of ['2026-01-31', '2024-02-29', '2000-02-29', '2026-04-30', '0001-01-01', '9999-12-31']) expect(isCalendarDay(d), d).to.equal(true);
    for (const d of ['2026-13-01', '2026-00-10', '2026-12-32', '2026-02-29', '1900-02-29', '2026-04-31', '0000-01-01', '2026-1-01', '2026-11-21T00:00Z'])
      expect(isCalendarDay(d), d).to.equal(false);
  });

  it('a date-time takes 0 to 9 fraction digits, cut to the millisecond, and any offset up to ±23:59', () => {
    const at = (s: string) => parseInstant(s)?.toISOString();
    expect(at('2026-11-28T10:00:00Z')).to.equal('2026-11-28T10:00:00.000Z');
    expect(at('2026-11-28T10:00:00.1Z')).to.equal('2026-11-28T10:00:00.100Z');
    expect(at('2026-11-28T10:00:00.123456Z')).to.equal('2026-11-28T10:00:00.123Z');
    expect(at('2026-11-28T10:00:00.123999999Z')).to.equal('2026-11-28T10:00:00.123Z');
    // cut, not rounded: the last instant of a Lagos month stays in that month
    expect(at('2026-11-30T23:59:59.9999999+01:00')).to.equal('2026-11-30T22:59:59.999Z');
    expect(at('2026-11-28T10:00:00.123456789+01:00')).to.equal('2026-11-28T09:00:00.123Z');
    expect(at('2026-11-28T10:00:00-05:30')).to.equal('2026-11-28T15:30:00.000Z');
    expect(at('2026-11-28T10:00Z')).to.equal('2026-11-28T10:00:00.000Z');
    expect(parseInstant('2026-11-28T10:00Z', { secondsRequired: true })).to.equal(undefined);
  });

  it('a date-time on a day that is not on the calendar, or a time that is not on the clock, is refused (not moved)', () => {
    for (const s of [
      '2026-02-30T10:00:00.000Z', '2026-02-31T10:00:00Z', '2026-13-01T00:00:00Z', '2026-11-28T24:00:00Z', '2026-11-28T10:60:00Z', '2026-11-28T23:59:60Z',
      '2026-11-28T10:00:00.1234567890Z', '2026-11-28T10:00:00+24:00', '2026-11-28T10:00:00+01:60', '2026-11-28T10:00:00', '2026-11-28 10:00:00Z',
    ])
      expect(parseInstant(s), s).to.equal(undefined);
  });

  it('the report exports\' period refuses a day that is not on the calendar itself, without throwing (behind the codec too)', () => {
    for (const [start, end] of [['2026-13-01', undefined], [undefined, '2026-12-32'], ['2026-02-30', '2026-03-01']] as const) {
      const r = reportPeriod('2026-11-28', start, end);
      expect(r).to.have.property('_tag', 'InvalidReportRange');
    }
    expect(reportPeriod('2026-11-28', '2024-02-29', '2024-03-01')).to.deep.equal({ start: '2024-02-29', end: '2024-03-01' });
  });
});
