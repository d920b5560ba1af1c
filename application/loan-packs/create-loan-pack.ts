import { lagosDate } from '../../domain/lagos-time.js';
import {
  canonicalJson, loanPackPeriod, loanPackPrice, loanPackReference, REFERENCE_ALPHABET, type LoanPackMonths,
} from '../../domain/loan-pack.js';
import type { Kobo } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import type { AuthRepositories } from '../auth/ports.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { ReportExportRepositories } from '../report-exports/ports.js';
import type { ReportRepositories } from '../reports/ports.js';
import { loanPackDocument } from './document.js';
import type { LoanPack, LoanPackRepositories } from './ports.js';

export interface CreateLoanPackCommand {
  readonly months: LoanPackMonths;
  readonly purpose?: string;
  readonly lenderName?: string;
}

/** The most branches a pack names (a business has a handful; the list is for identity, not an inventory). */
const MAX_BRANCHES = 100;
/** A clash of two random references (1 in 32^6 a day) is tried again this many times. */
const REFERENCE_TRIES = 5;

export type CreateLoanPackRepositories = LoanPackRepositories &
  Pick<ReportRepositories, 'reports'> &
  ReportExportRepositories &
  Pick<CustomerRepositories, 'credit'> &
  Pick<BusinessRepositories, 'businesses' | 'branches'> &
  Pick<AuthRepositories, 'users'>;

/**
 * Makes a loan pack of the last 6 or 12 Lagos months (today's month to date included): every figure is
 * read from the books in one transaction and frozen as canonical JSON with its SHA-256, so later sales
 * do not move it. On Free and Starter it waits for payment (the configured price); on Business and Pro
 * it is ready at once and costs nothing.
 */
export const createLoanPack =
  (deps: { uow: UnitOfWork<CreateLoanPackRepositories>; clock: Clock; crypto: Crypto; loanPackPrice: Kobo }) =>
  (actor: Actor, cmd: CreateLoanPackCommand): Promise<LoanPack> =>
    deps.uow.run(async (r) => {
      const now = deps.clock.now();
      const today = lagosDate(now);
      const period = loanPackPeriod(today, cmd.months);
      const business = (await r.businesses.findById(actor.businessId))!;
      const owner = await r.users.findById(actor.userId);
      const branches = await r.branches.list(actor.businessId, { sortBy: 'created_at', sortDir: 'asc', limit: MAX_BRANCHES });
      const figures = {
        createdAt: now,
        months: cmd.months,
        period,
        purpose: cmd.purpose ?? null,
        lenderName: cmd.lenderName ?? null,
        business: {
          name: business.name,
          ownerName: owner ? `${owner.firstName} ${owner.lastName}`.trim() : '',
          verifiedPhone: owner?.verifiedAt && owner.phone ? owner.phone : null,
          registeredSince: business.createdAt,
          branches: branches.items.map((b) => b.name),
        },
        profitLoss: await r.reports.profitLoss(actor.businessId, period),
        activity: await r.reports.monthActivity(actor.businessId, period),
        cashFlow: await r.reportExports.cashFlow(actor.businessId, period.from, period.to),
        stock: await r.reports.stockValue(actor.businessId),
        credit: await r.credit.agingTotals(actor.businessId, today),
      };
      const price = loanPackPrice(business.plan, deps.loanPackPrice);
      for (let i = 0; i < REFERENCE_TRIES; i++) {
        const reference = loanPackReference(now, deps.crypto.randomString(6, REFERENCE_ALPHABET));
        const document = canonicalJson(loanPackDocument({ ...figures, reference }));
        const pack: LoanPack = {
          id: deps.crypto.uuid(),
          businessId: actor.businessId,
          reference,
          status: price > 0 ? 'PENDING_PAYMENT' : 'READY',
          months: cmd.months,
          periodStart: period.from,
          periodEnd: period.to,
          price,
          currency: 'NGN',
          purpose: cmd.purpose ?? null,
          lenderName: cmd.lenderName ?? null,
          document,
          sha256: deps.crypto.sha256Hex(document),
          createdBy: actor.userId,
          createdAt: now,
          paidAt: null,
          checkout: null,
        };
        if ((await r.loanPacks.add(pack)) === 'added') return pack;
      }
      throw new Error(`no free loan pack reference after ${REFERENCE_TRIES} tries`);
    });
