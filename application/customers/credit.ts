import * as E from 'fp-ts/lib/Either.js';
import { allocateOldestFirst, type AgingBucket, type AgingRow, type Allocation, type CreditEntry, type CreditPaymentMethod } from '../../domain/credit.js';
import { checkPayment, type AmountNotPositive } from '../../domain/amount-rules.js';
import { lagosDate, lagosDayStart } from '../../domain/lagos-time.js';
import { kobo, type Kobo } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import { recordCreditEntry } from './credit-entry.js';
import { creditPaymentRecorded } from '../../domain/events.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { AgingSort, CustomerRepositories } from './ports.js';
import type { SyncRepositories } from '../sync/ports.js';
import { underClientId, type ClientIdConflict, type ClientMade, type Replayed } from '../sync/client-id.js';

export type Overpayment = { readonly _tag: 'Overpayment'; readonly balance: Kobo };

export interface PaymentCommand extends ClientMade {
  readonly amount: Kobo;
  readonly method: CreditPaymentMethod;
  readonly note?: string;
}

export interface RecordedPayment {
  readonly entry: CreditEntry;
  readonly allocations: Allocation[];
}

/**
 * A customer pays toward what they owe: allocated to the oldest open debt first. A payment is more
 * than zero, and paying more than the balance is refused. The customer row is locked first, so two
 * payments at once cannot together pay more than is owed.
 */
export const recordCreditPayment =
  (deps: { uow: UnitOfWork<CustomerRepositories & EventRepositories & SyncRepositories>; clock: Clock; crypto: Crypto }) =>
  async (actor: Actor, customerId: string, cmd: PaymentCommand): Promise<E.Either<AmountNotPositive | NotFound | Overpayment | ClientIdConflict, Replayed<RecordedPayment>>> => {
    const broken = checkPayment('amount', cmd.amount);
    if (broken) return E.left(broken);
    type Failure = AmountNotPositive | NotFound | Overpayment;
    return deps.uow.run(async (r) => {
      const replay = async (id: string) => {
        const entry = await r.credit.entryById(actor.businessId, id);
        return entry && { entry, allocations: await r.credit.allocationsOf(actor.businessId, id) };
      };
      const content = { customerId, ...cmd };
      return underClientId<Failure, RecordedPayment>(deps, r, { businessId: actor.businessId, kind: 'CREDIT_PAYMENT', made: cmd, content, at: deps.clock.now() }, replay, async (clientId) => {
      const customer = await r.customers.findById(actor.businessId, customerId, { forUpdate: true });
      if (!customer) return E.left(notFound);
      // invoices are paid on the invoice: a payment here settles credit sales only (docs/adr/0073)
      const invoicesOwed = (await r.credit.openInvoices(actor.businessId, customerId)).reduce((n, i) => n + i.outstanding, 0);
      const payable = kobo(Math.max(0, customer.creditBalance - invoicesOwed));
      if (cmd.amount > payable) return E.left({ _tag: 'Overpayment' as const, balance: payable });
      const debts = await r.credit.openDebts(actor.businessId, customerId, { forUpdate: true });
      const allocations = allocateOldestFirst(debts, cmd.amount);
      const allocated = allocations.reduce((n, a) => n + a.amount, 0);
      if (allocated !== cmd.amount) throw new Error(`customer ${customerId}: balance ${customer.creditBalance} disagrees with open debts`);
      for (const a of allocations) await r.credit.reduceOutstanding(actor.businessId, a.saleId, a.amount);
      const entry = await recordCreditEntry(deps, r, actor, { customer, kind: 'PAYMENT', amount: -cmd.amount, method: cmd.method, note: cmd.note ?? null, ...(clientId ? { id: clientId } : {}) });
      await r.credit.addAllocations(actor.businessId, entry.id, allocations);
      await r.events.record(entry.createdAt, creditPaymentRecorded(entry));
      return E.right({ entry, allocations });
      });
    });
  };

export interface CreditSummary {
  readonly balance: Kobo;
  readonly creditLimit: Kobo | null;
  readonly availableCredit: Kobo | null;
  readonly oldestUnpaidAt: Date | null;
  readonly lastPaymentAt: Date | null;
}

export const getCreditSummary =
  (deps: { uow: UnitOfWork<CustomerRepositories> }) =>
  (actor: Actor, customerId: string): Promise<E.Either<NotFound, CreditSummary>> =>
    deps.uow.read(async (r) => {
      const c = await r.customers.findById(actor.businessId, customerId);
      if (!c) return E.left(notFound);
      const [debts, invoices] = await Promise.all([r.credit.openDebts(actor.businessId, customerId), r.credit.openInvoices(actor.businessId, customerId)]);
      // an invoice is unpaid from its due date, as the aging report ages it
      const oldest = [...debts.map((d) => d.createdAt), ...invoices.map((i) => lagosDayStart(i.dueDate))].sort((a, b) => a.getTime() - b.getTime())[0];
      const last = await r.credit.lastPaymentAt(actor.businessId, customerId);
      return E.right({
        balance: c.creditBalance,
        creditLimit: c.creditLimit,
        availableCredit: c.creditLimit === null ? null : kobo(Math.max(0, c.creditLimit - c.creditBalance)),
        oldestUnpaidAt: oldest ?? null,
        lastPaymentAt: last ?? null,
      });
    });

/** The customer's sales, payments, voids and returns, newest first, each with its effect and the balance after it. */
export const listCreditTransactions =
  (deps: { uow: UnitOfWork<CustomerRepositories> }) =>
  (actor: Actor, customerId: string, page: PageRequest<'created_at'>): Promise<E.Either<NotFound, Page<CreditEntry & { allocations: Allocation[] }>>> =>
    deps.uow.read(async (r) => {
      if (!(await r.customers.exists(actor.businessId, customerId))) return E.left(notFound);
      const entries = await r.credit.list(actor.businessId, customerId, page);
      const items = [];
      for (const e of entries.items) items.push({ ...e, allocations: e.kind === 'PAYMENT' || e.kind === 'RETURN' ? await r.credit.allocationsOf(actor.businessId, e.id) : [] });
      return E.right({ ...entries, items });
    });

export interface AgingReport {
  readonly asOf: string;
  readonly page: Page<AgingRow>;
  readonly totals: { buckets: Record<AgingBucket, Kobo>; total: Kobo; customers: number };
}

/** What customers owe by age of debt (Lagos days: 0-30, 31-60, 61-90, over 90), per customer and in total. */
export const agingReport =
  (deps: { uow: UnitOfWork<Pick<CustomerRepositories, 'credit'>>; clock: Clock }) =>
  (actor: Actor, page: PageRequest<AgingSort>): Promise<AgingReport> =>
    // The page and the totals side by side on one connection: one round trip, not two.
    deps.uow.readInTurn(async (r) => {
      const today = lagosDate(deps.clock.now());
      const [rows, totals] = await Promise.all([r.credit.aging(actor.businessId, today, page), r.credit.agingTotals(actor.businessId, today)]);
      return { asOf: today, page: rows, totals };
    });
