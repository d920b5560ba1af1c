import { lagosDate, lagosMonthStart, lagosNextMonthStart } from '../../domain/lagos-time.js';
import { limitsMonthlySales, monthlySalesUsage, type MonthlySalesUsage, type Plan } from '../../domain/plan.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { SaleRepositories } from '../sales/ports.js';

/** The plan's limits and this Lagos month's use of them, so an app can warn before the 402. */
export interface PlanUsage {
  readonly plan: Plan;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly sales: MonthlySalesUsage;
}

/**
 * The caller's plan usage this Lagos month. On a plan with a cap, the count is the gate's own counter
 * (so `remaining` reaches 0 exactly when the next sale is refused); otherwise the month's sales are counted.
 */
export const getPlanUsage =
  (deps: { uow: UnitOfWork<SaleRepositories>; clock: Clock }) =>
  (actor: Actor, plan: Plan): Promise<PlanUsage> =>
    deps.uow.read(async (r) => {
      const now = deps.clock.now();
      const periodStart = lagosMonthStart(now);
      const periodEnd = lagosNextMonthStart(now);
      const count = limitsMonthlySales(plan)
        ? await r.sales.monthlySaleCount(actor.businessId, lagosDate(now).slice(0, 7))
        : await r.sales.countCreatedBetween(actor.businessId, periodStart, periodEnd);
      return { plan, periodStart, periodEnd, sales: monthlySalesUsage(plan, count) };
    });
