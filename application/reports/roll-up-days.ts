import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { ReportRepositories } from './ports.js';

/** Businesses asked for at a time. */
const BATCH = 100;
/**
 * Days one business rolls up in one transaction: a year of a busy shop is a few hundred thousand sales
 * summed in one go; a longer backlog (a first run on an old database) is worked off minute by minute.
 */
export const ROLL_UP_MAX_DAYS = 400;

/**
 * The reports' day totals brought up to date (docs/adr/0086): each business with days over and not rolled
 * up, or changed since, in a transaction of its own. Run each minute; answers how many days it rolled up.
 */
export const rollUpReportDays = (deps: { uow: UnitOfWork<Pick<ReportRepositories, 'reportDayTotals'>> }) => async (): Promise<number> => {
  let rolled = 0;
  let after: string | undefined;
  for (;;) {
    const businesses = await deps.uow.read((r) => r.reportDayTotals.businessesToRollUp(BATCH, after));
    for (const businessId of businesses) rolled += await deps.uow.run((r) => r.reportDayTotals.rollUp(businessId, ROLL_UP_MAX_DAYS));
    if (businesses.length < BATCH) return rolled;
    after = businesses[businesses.length - 1];
  }
};
