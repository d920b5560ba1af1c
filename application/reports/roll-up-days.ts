import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { ReportRepositories } from './ports.js';

/** Businesses asked for at a time. */
const BATCH = 100;
/**
 * Days one business rolls up in one transaction: a month of even a very busy shop (10,000 sales a day) is
 * summed well inside the statement timeout. A longer backlog (a first run on an old database) is rolled up
 * a month a transaction, one after the other.
 */
export const ROLL_UP_MAX_DAYS = 31;

/**
 * The reports' day totals brought up to date (docs/adr/0086): each business with days over and not rolled
 * up, or changed since, in transactions of at most ROLL_UP_MAX_DAYS days. Run each minute; answers how many
 * days it rolled up.
 */
export const rollUpReportDays = (deps: { uow: UnitOfWork<Pick<ReportRepositories, 'reportDayTotals'>> }) => async (): Promise<number> => {
  let rolled = 0;
  let after: string | undefined;
  for (;;) {
    const businesses = await deps.uow.read((r) => r.reportDayTotals.businessesToRollUp(BATCH, after));
    for (const businessId of businesses) {
      for (;;) {
        const days = await deps.uow.run((r) => r.reportDayTotals.rollUp(businessId, ROLL_UP_MAX_DAYS));
        rolled += days;
        if (days < ROLL_UP_MAX_DAYS) break;
        // a backlog: where one transaction holds up every other (the embedded PGlite), requests go first
        await deps.uow.giveWay(50);
      }
    }
    if (businesses.length < BATCH) return rolled;
    after = businesses[businesses.length - 1];
  }
};
