import { expect } from 'chai';
import { ROLL_UP_MAX_DAYS, rollUpReportDays } from '../../../application/reports/roll-up-days.js';
import type { ReportDayTotals } from '../../../application/reports/ports.js';
import type { UnitOfWork } from '../../../application/ports/unit-of-work.js';

// rollUpReportDays over a scripted ReportDayTotals: how it pages the businesses and bounds each transaction.
// (The SQL roll-up itself: test/contract/report-day-totals.contract.test.ts.)

/** Businesses with days to roll up (`backlog` days each), as the port would list them; transactions counted. */
const scripted = (backlog: Record<string, number>) => {
  const left = { ...backlog };
  const transactions: { businessId: string; maxDays: number; rolled: number }[] = [];
  let reads = 0;
  const totals: ReportDayTotals = {
    async businessesToRollUp(limit, after) {
      return Object.keys(left).filter((id) => left[id]! > 0 && (after === undefined || id > after)).sort().slice(0, limit);
    },
    async rollUp(businessId, maxDays) {
      const rolled = Math.min(maxDays, left[businessId] ?? 0);
      left[businessId] = (left[businessId] ?? 0) - rolled;
      transactions.push({ businessId, maxDays, rolled });
      return rolled;
    },
  };
  const repos = { reportDayTotals: totals };
  let givenWay = 0;
  const uow = {
    run: async (work: (r: typeof repos) => Promise<unknown>) => work(repos),
    read: async (work: (r: typeof repos) => Promise<unknown>) => (reads++, work(repos)),
    giveWay: async () => (givenWay++, true),
  } as unknown as UnitOfWork<typeof repos>;
  return { uow, transactions, left, reads: () => reads, givenWay: () => givenWay };
};

describe('rollUpReportDays', () => {
  it('brings every business up to date in one run, a transaction at most ROLL_UP_MAX_DAYS days each', async () => {
    const s = scripted({ a: 2 * ROLL_UP_MAX_DAYS + 5, b: 3, c: ROLL_UP_MAX_DAYS });
    expect(await rollUpReportDays({ uow: s.uow })()).to.equal(3 * ROLL_UP_MAX_DAYS + 8);
    expect(s.transactions.map((t) => [t.businessId, t.rolled])).to.deep.equal([
      ['a', ROLL_UP_MAX_DAYS], ['a', ROLL_UP_MAX_DAYS], ['a', 5],
      ['b', 3],
      ['c', ROLL_UP_MAX_DAYS], ['c', 0], // a full month may not be the last: asked once more
    ]);
    expect(s.transactions.every((t) => t.maxDays === ROLL_UP_MAX_DAYS)).to.equal(true);
    expect(Object.values(s.left).every((n) => n === 0)).to.equal(true);
    expect(s.givenWay()).to.equal(3); // between a business's transactions, for waiting requests (PGlite)
  });

  it('pages through more businesses than one listing holds, and has nothing to do when none has days', async () => {
    const s = scripted(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`b${String(i).padStart(3, '0')}`, 1])));
    expect(await rollUpReportDays({ uow: s.uow })()).to.equal(250);
    expect(s.reads()).to.equal(3); // 100, 100, 50
    const none = scripted({});
    expect(await rollUpReportDays({ uow: none.uow })()).to.equal(0);
    expect(none.transactions).to.deep.equal([]);
  });
});
