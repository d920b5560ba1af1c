import { expect } from 'chai';
import { checkFeature } from '../../../domain/plan.js';
import { averageOf, changePct, checkRange, dashboardRange, percentOf, previousRange } from '../../../domain/report.js';
import { kobo } from '../../../domain/money.js';

describe('domain: report periods and derived figures', () => {
  const now = new Date('2026-11-30T23:30:00Z'); // 00:30 on 1 December in Lagos

  it('periods are Lagos days: today at 23:30Z is tomorrow in Lagos; month is the Lagos month to date', () => {
    expect(dashboardRange('today', now, {})).to.deep.equal({ from: '2026-12-01', to: '2026-12-01' });
    expect(dashboardRange('yesterday', now, {})).to.deep.equal({ from: '2026-11-30', to: '2026-11-30' });
    expect(dashboardRange('7d', now, {})).to.deep.equal({ from: '2026-11-25', to: '2026-12-01' });
    expect(dashboardRange('30d', now, {})).to.deep.equal({ from: '2026-11-02', to: '2026-12-01' });
    expect(dashboardRange('month', now, {})).to.deep.equal({ from: '2026-12-01', to: '2026-12-01' });
    expect(dashboardRange('custom', now, { start: '2024-02-01', end: '2024-02-29' })).to.deep.equal({ from: '2024-02-01', to: '2024-02-29' });
  });

  it('previous is the same number of days just before, across months and leap days', () => {
    expect(previousRange({ from: '2026-03-01', to: '2026-03-31' })).to.deep.equal({ from: '2026-01-29', to: '2026-02-28' });
    expect(previousRange({ from: '2024-03-01', to: '2024-03-01' })).to.deep.equal({ from: '2024-02-29', to: '2024-02-29' });
  });

  it('bad ranges: custom without both dates, dates with another period, end before start, over 366 days', () => {
    expect(dashboardRange('custom', now, { start: '2026-11-01' })).to.include({ _tag: 'InvalidReportRange', field: 'end_date' });
    expect(dashboardRange('custom', now, {})).to.include({ field: 'start_date' });
    expect(dashboardRange('7d', now, { end: '2026-11-01' })).to.include({ field: 'end_date' });
    expect(checkRange('2026-11-02', '2026-11-01')).to.include({ _tag: 'InvalidReportRange' });
    expect(checkRange('2024-01-01', '2024-12-31')).to.deep.equal({ from: '2024-01-01', to: '2024-12-31' }); // 366 days
    expect(checkRange('2024-01-01', '2025-01-01')).to.include({ _tag: 'InvalidReportRange' });
  });

  it('percentages have 2 decimals, half away from zero, null on a zero base; averages round half up in kobo', () => {
    expect(percentOf(1, 3)).to.equal(33.33);
    expect(percentOf(2, 3)).to.equal(66.67);
    expect(percentOf(-2, 3)).to.equal(-66.67);
    expect(percentOf(1, 8)).to.equal(12.5);
    expect(percentOf(1, 0)).to.equal(null);
    expect(changePct(5000, 22000)).to.equal(-77.27);
    expect(changePct(0, 0)).to.equal(null);
    expect(averageOf(kobo(1000), 3)).to.equal(333);
    expect(averageOf(kobo(1001), 2)).to.equal(501);
    expect(averageOf(kobo(0), 0)).to.equal(0);
  });

  it('sums past 2^53 kobo: percentages, changes and averages exact in bigint, never a RangeError (issue 31)', () => {
    const big = 9_100_000_000_000_003n; // 91 sales of 1,000,000,000,000.00 and one of 0.03
    expect(percentOf(big / 2n, big)).to.equal(50);
    expect(percentOf(4_550_000_000_000_003n, big)).to.equal(50);
    expect(percentOf(1n, big)).to.equal(0);
    expect(changePct(big, 100n)).to.equal(Number(909_999_999_999_990_300n) / 100); // basis points exact, then one division
    expect(changePct(0n, big)).to.equal(-100);
    expect(changePct(big, 0n)).to.equal(null);
    expect(averageOf(big, 92)).to.equal(98_913_043_478_261); // 98,913,043,478,260.90... half up
    expect(percentOf(33.33, 50)).to.equal(66.66); // a rate with decimals keeps number arithmetic
  });

  it('top services are a Business and Pro feature', () => {
    expect(checkFeature('FREE', 'TOP_SERVICES')).to.include({ _tag: 'FeatureNotAvailable', plan: 'FREE' });
    expect(checkFeature('STARTER', 'TOP_SERVICES')).to.include({ _tag: 'FeatureNotAvailable' });
    expect(checkFeature('BUSINESS', 'TOP_SERVICES')).to.equal(undefined);
    expect(checkFeature('PRO', 'TOP_SERVICES')).to.equal(undefined);
  });
});
