import * as E from 'fp-ts/lib/Either.js';
import type { AmountNotPositive, NegativeAmount } from '../../domain/amount-rules.js';
import { checkExpense, checkExpenseVat, type VatExceedsAmount, type Expense, type ExpensePaymentMethod, type ExpenseSummary, type ExpenseSummaryGroupBy, type SpentOnInFuture } from '../../domain/expense.js';
import { lagosDate } from '../../domain/lagos-time.js';
import type { Kobo } from '../../domain/money.js';
import { hasAnyRole, type Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { EventRepositories } from '../ports/outbox.js';
import { notFound, type NotFound, type UnknownBranch } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { ExpenseFilter, ExpenseRepositories, ExpenseSort } from './ports.js';
import type { SyncRepositories } from '../sync/ports.js';
import { underClientId, type ClientIdConflict, type ClientMade, type Replayed } from '../sync/client-id.js';


type Expenses = ExpenseRepositories;
type WithBranches = ExpenseRepositories & Pick<BusinessRepositories, 'branches' | 'memberships'>;

export type UnknownCategory = { readonly _tag: 'UnknownCategory'; readonly categoryId: string };

export interface ExpenseFields {
  readonly categoryId: string;
  readonly amount: Kobo;
  /** The VAT the amount holds (input VAT), at most the amount; 0 when left out. */
  readonly vatAmount?: Kobo;
  readonly description: string;
  readonly vendor?: string | null;
  readonly paymentMethod: ExpensePaymentMethod;
  /** A Lagos day (YYYY-MM-DD); today in Lagos when left out. */
  readonly spentOn?: string;
  readonly reference?: string | null;
  /** The caller's branch when left out (or the business's default branch when theirs is archived). */
  readonly branchId?: string;
}

export type ExpenseFailure = AmountNotPositive | NegativeAmount | VatExceedsAmount | SpentOnInFuture | UnknownCategory | UnknownBranch;

/** An owner sees every expense; anyone else (STAFF) only those they recorded. */
const seesAll = (actor: Actor) => hasAnyRole(actor, ['BUSINESS_OWNER']);
const visibleTo = (actor: Actor, e: Expense | undefined) => (e && (seesAll(actor) || e.createdBy === actor.userId) ? e : undefined);
/** The filter narrowed to what the actor may see; undefined when it asks STAFF for another member's expenses (none visible). */
const ownFilter = (actor: Actor, filter: ExpenseFilter): ExpenseFilter | undefined =>
  seesAll(actor) ? filter : filter.createdBy && filter.createdBy !== actor.userId ? undefined : { ...filter, createdBy: actor.userId };

/** The branch an expense is booked to: the one named (live, of this business), else the caller's, else the default. */
const branchFor = async (r: WithBranches, actor: Actor, branchId: string | undefined): Promise<E.Either<UnknownBranch, string>> => {
  if (branchId) {
    const named = await r.branches.findById(actor.businessId, branchId, { lock: 'use' });
    return named ? E.right(named.id) : E.left({ _tag: 'UnknownBranch', branchId });
  }
  const membership = await r.memberships.findByUser(actor.userId);
  const own = membership?.businessId === actor.businessId && membership.branchId ? await r.branches.findById(actor.businessId, membership.branchId, { lock: 'use' }) : undefined;
  return E.right((own ?? (await r.branches.findDefault(actor.businessId))).id);
};

/** Records an expense: amount above zero, a category of the business, a day not after today in Lagos. */
export const createExpense =
  (deps: { uow: UnitOfWork<WithBranches & SyncRepositories>; clock: Clock; crypto: Crypto }) =>
  async (actor: Actor, fields: ExpenseFields & ClientMade): Promise<E.Either<ExpenseFailure | ClientIdConflict, Replayed<Expense>>> => {
    const now = deps.clock.now();
    const spentOn = fields.spentOn ?? lagosDate(now);
    const broken = checkExpense({ amount: fields.amount, ...(fields.vatAmount !== undefined ? { vatAmount: fields.vatAmount } : {}), spentOn }, lagosDate(now)) ?? checkExpenseVat(fields);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const replay = (id: string) => r.expenses.findById(actor.businessId, id);
      return underClientId<ExpenseFailure, Expense>(deps, r, { businessId: actor.businessId, kind: 'EXPENSE', made: fields, content: fields, at: now }, replay, async (clientId) => {
      const category = await r.expenseCategories.findById(actor.businessId, fields.categoryId, { lock: 'use' });
      if (!category) return E.left({ _tag: 'UnknownCategory' as const, categoryId: fields.categoryId });
      const branch = await branchFor(r, actor, fields.branchId);
      if (E.isLeft(branch)) return branch;
      const expense: Expense = {
        id: clientId ?? deps.crypto.uuid(),
        businessId: actor.businessId,
        branchId: branch.right,
        categoryId: category.id,
        categoryName: category.name,
        amount: fields.amount,
        ...(fields.vatAmount ? { vatAmount: fields.vatAmount } : {}),
        description: fields.description,
        vendor: fields.vendor ?? null,
        paymentMethod: fields.paymentMethod,
        spentOn,
        reference: fields.reference ?? null,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      };
      await r.expenses.add(expense);
      return E.right(expense);
      });
    });
  };

/** Changes the fields present (null clears vendor or reference); the same rules as recording it. */
export const updateExpense =
  (deps: { uow: UnitOfWork<WithBranches>; clock: Clock }) =>
  async (actor: Actor, expenseId: string, changes: Partial<ExpenseFields>): Promise<E.Either<ExpenseFailure | NotFound, Expense>> => {
    const now = deps.clock.now();
    const broken = checkExpense(changes, lagosDate(now));
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const expense = visibleTo(actor, await r.expenses.findById(actor.businessId, expenseId, { forUpdate: true }));
      if (!expense) return E.left(notFound);
      if (changes.categoryId !== undefined) {
        const category = await r.expenseCategories.findById(actor.businessId, changes.categoryId, { lock: 'use' });
        if (!category) return E.left({ _tag: 'UnknownCategory' as const, categoryId: changes.categoryId });
        Object.assign(expense, { categoryId: category.id, categoryName: category.name });
      }
      if (changes.branchId !== undefined) {
        const branch = await branchFor(r, actor, changes.branchId);
        if (E.isLeft(branch)) return branch;
        expense.branchId = branch.right;
      }
      const { categoryId: _c, branchId: _b, ...rest } = changes;
      for (const [k, v] of Object.entries(rest)) if (v !== undefined) (expense as unknown as Record<string, unknown>)[k] = v;
      if (expense.vatAmount === 0) delete expense.vatAmount; // none recorded
      const tooMuchVat = checkExpenseVat(expense);
      if (tooMuchVat) return E.left(tooMuchVat);
      expense.updatedAt = now;
      await r.expenses.save(expense);
      return E.right(expense);
    });
  };

/** One live expense; a deleted one, another business's, or (for STAFF) another member's is NotFound. */
export const getExpense =
  (deps: { uow: UnitOfWork<Expenses> }) =>
  async (actor: Actor, expenseId: string): Promise<E.Either<NotFound, Expense>> => {
    const e = visibleTo(actor, await deps.uow.read((r) => r.expenses.findById(actor.businessId, expenseId)));
    return e ? E.right(e) : E.left(notFound);
  };

/** The Lagos days a page request's instants cover: spent_on is a day, so a date-time selects its Lagos day. */
const spentRange = (page: PageRequest<ExpenseSort>): { page: PageRequest<ExpenseSort>; range: ExpenseFilter } => {
  const { from, to, ...rest } = page;
  return { page: rest, range: { ...(from ? { spentFrom: lagosDate(from) } : {}), ...(to ? { spentTo: lagosDate(new Date(to.getTime() - 1)) } : {}) } };
};

/** A page of live expenses (STAFF: their own only); start_date/end_date bound spent_on. */
export const listExpenses =
  (deps: { uow: UnitOfWork<Expenses> }) =>
  (actor: Actor, request: PageRequest<ExpenseSort>, filter: ExpenseFilter): Promise<Page<Expense>> => {
    const { page, range } = spentRange(request);
    const visible = ownFilter(actor, { ...filter, ...range });
    return visible ? deps.uow.read((r) => r.expenses.list(actor.businessId, page, visible)) : Promise.resolve({ items: [], hasNext: false });
  };

/** Deletes softly: who and when are kept for the audit trail; afterwards lists, the summary and reports leave it out. */
export const deleteExpense =
  (deps: { uow: UnitOfWork<Expenses & EventRepositories>; clock: Clock }) =>
  async (actor: Actor, expenseId: string): Promise<E.Either<NotFound, { id: string; deletedAt: Date }>> =>
    deps.uow.run(async (r) => {
      const at = deps.clock.now();
      const expense = visibleTo(actor, await r.expenses.findById(actor.businessId, expenseId, { forUpdate: true }));
      if (!expense || !(await r.expenses.softDelete(actor.businessId, expenseId, actor.userId, at))) return E.left(notFound);
      const { id, branchId, amount, description, categoryName, spentOn } = expense;
      await r.events.record(at, { _tag: 'ExpenseDeleted', businessId: actor.businessId, expenseId: id, branchId, amount, description, categoryName, spentOn });
      return E.right({ id: expense.id, deletedAt: at });
    });

/** Totals and counts of the live expenses per category, Lagos day or Lagos month, and overall (STAFF: their own). */
export const expenseSummary =
  (deps: { uow: UnitOfWork<Expenses> }) =>
  (actor: Actor, groupBy: ExpenseSummaryGroupBy, range: { spentFrom?: string; spentTo?: string }): Promise<ExpenseSummary> =>
    deps.uow.read((r) => r.expenses.summary(actor.businessId, groupBy, ownFilter(actor, range)!)); // no created_by asked: never undefined
