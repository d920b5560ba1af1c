import * as E from 'fp-ts/lib/Either.js';
import type { Business } from '../../domain/business.js';
import type { Actor } from '../../domain/roles.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { Clock } from '../ports/clock.js';
import { lagosDate, lagosMonthStart } from '../../domain/lagos-time.js';
import { monthlySalesLimit } from '../../domain/plan.js';
import { notFound, type NotFound } from './errors.js';

/** The caller's business. Any other id, even a real one, does not exist for the caller. */
export const getBusiness =
  (deps: { uow: UnitOfWork }) =>
  async (actor: Actor, businessId: string = actor.businessId): Promise<E.Either<NotFound, Business>> => {
    if (businessId !== actor.businessId) return E.left(notFound);
    const business = await deps.uow.read((r) => r.businesses.findById(actor.businessId));
    return business ? E.right(business) : E.left(notFound);
  };

/** The plan's limits and this Lagos month's use of them, so an app can warn before the 402. */
export interface PlanUsage {
  readonly monthlySalesLimit: number | null;
  readonly salesThisMonth: number;
  readonly salesRemaining: number | null;
  readonly periodStart: Date;
  readonly periodEnd: Date;
}

export const planUsage =
  (deps: { uow: UnitOfWork; clock: Clock }) =>
  async (business: Business): Promise<PlanUsage> => {
    const now = deps.clock.now();
    const limit = monthlySalesLimit(business.plan) ?? null;
    const used = await deps.uow.read((r) => r.sales.salesInMonth(business.id, lagosDate(now).slice(0, 7)));
    const periodStart = lagosMonthStart(now);
    const periodEnd = lagosMonthStart(new Date(periodStart.getTime() + 32 * 86_400_000));
    return { monthlySalesLimit: limit, salesThisMonth: used, salesRemaining: limit === null ? null : Math.max(0, limit - used), periodStart, periodEnd };
  };
