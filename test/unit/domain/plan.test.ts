import { expect } from 'chai';
import fc from 'fast-check';
import { checkMonthlySale, DEFAULT_PLAN, isPlan, limitsMonthlySales, monthlySalesLimit, monthlySalesUsage, PLANS } from '../../../domain/plan.js';

describe('plan gates (domain/plan.ts)', () => {
  it('a new business starts on FREE, which caps sales at 50 a month; the paid plans have no cap', () => {
    expect(DEFAULT_PLAN).to.equal('FREE');
    expect(PLANS.filter(limitsMonthlySales)).to.deep.equal(['FREE']);
    expect(monthlySalesLimit('FREE')).to.equal(50);
    for (const plan of ['STARTER', 'BUSINESS', 'PRO'] as const) expect(monthlySalesLimit(plan)).to.equal(null);
  });

  it('FREE records the 50th sale of the month and refuses the 51st', () => {
    expect(checkMonthlySale('FREE', 50)).to.equal(undefined);
    expect(checkMonthlySale('FREE', 51)).to.deep.equal({ _tag: 'PlanLimitExceeded', plan: 'FREE', limit: 50 });
  });

  it('for any count: a plan without a cap never refuses; a capped plan refuses exactly past its cap', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLANS), fc.nat(1_000_000), (plan, n) => {
        const limit = monthlySalesLimit(plan);
        const gate = checkMonthlySale(plan, n);
        return limit === null ? gate === undefined : (gate !== undefined) === n > limit;
      }),
    );
  });

  it('usage counts the month against the cap; remaining never goes below 0 and is null without a cap', () => {
    expect(monthlySalesUsage('FREE', 45)).to.deep.equal({ count: 45, limit: 50, remaining: 5 });
    expect(monthlySalesUsage('FREE', 60)).to.deep.equal({ count: 60, limit: 50, remaining: 0 });
    expect(monthlySalesUsage('PRO', 600)).to.deep.equal({ count: 600, limit: null, remaining: null });
    fc.assert(fc.property(fc.constantFrom(...PLANS), fc.nat(1000), (plan, n) => (monthlySalesUsage(plan, n).remaining ?? 0) >= 0));
  });

  it('knows its plan names', () => {
    expect(isPlan('STARTER')).to.equal(true);
    expect(isPlan('free')).to.equal(false);
  });
});
