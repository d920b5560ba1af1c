import * as E from 'fp-ts/lib/Either.js';
import { checkAmounts, checkPrices, type NegativeAmount, type NegativePrice } from '../../domain/amount-rules.js';
import type { UnknownBranch } from '../../domain/business.js';
import {
  addDays,
  seriesOf,
  priceInvoice,
  takesStock,
  type Invoice,
  type InvoiceAmountsInvalid,
  type InvoiceHasPayments,
  type InvoiceLineInput,
  type InvoiceNotDraft,
  type InvoiceType,
  type InvoiceWrongState,
  type ProductFacts,
  type UnknownInvoiceCustomer,
  type UnknownInvoiceProduct,
  type VatNotRegistered,
} from '../../domain/invoice.js';
import { invoiceCancelled, invoiceSent } from '../../domain/events.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { kobo } from '../../domain/money.js';
import type { InsufficientStock } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import { vatModeOf } from '../../domain/vat.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import { stockBranchFor, type WrongBranch } from '../products/branch-stock.js';
import { moveStocks } from '../products/move-stock.js';
import { invoiceCredit } from './invoice-credit.js';
import type { ProductRepositories } from '../products/ports.js';
import type { InvoiceFilter, InvoiceRepositories, InvoiceSort } from './ports.js';

export type { InvoiceNotDraft, InvoiceHasPayments, InvoiceWrongState, VatNotRegistered, UnknownInvoiceProduct, UnknownInvoiceCustomer, InvoiceAmountsInvalid } from '../../domain/invoice.js';

/** 32 characters of 62: about 190 random bits (docs/adr/0074). */
const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const newShareToken = (crypto: Crypto): string => crypto.randomString(32, TOKEN_ALPHABET);

export interface InvoiceContent {
  readonly customerId: string;
  readonly branchId?: string;
  /** Lagos date; default today. */
  readonly issueDate?: string;
  /** 0-365; default the business's payment_terms_days. */
  readonly paymentTermsDays?: number;
  readonly lines: readonly InvoiceLineInput[];
  readonly notes?: string | null;
}
export interface CreateInvoiceCommand extends InvoiceContent {
  readonly type: InvoiceType;
}

type Deps = {
  uow: UnitOfWork<InvoiceRepositories & Pick<BusinessRepositories, 'businesses' | 'branches'> & CustomerRepositories & ProductRepositories & EventRepositories>;
  clock: Clock;
  crypto: Crypto;
};
type Repos = Parameters<Parameters<Deps['uow']['run']>[0]>[0];

export type DraftFailure = NotFound | NegativePrice | NegativeAmount | VatNotRegistered | UnknownInvoiceCustomer | UnknownInvoiceProduct | InvoiceAmountsInvalid | UnknownBranch | WrongBranch;

const checkLineAmounts = (lines: readonly InvoiceLineInput[]) =>
  checkPrices(lines.map((l, i) => [`lines.${i}.unit_price`, l.unitPrice] as const)) ?? checkAmounts(lines.map((l, i) => [`lines.${i}.discount`, l.discount] as const));

/** The draft's priced content: its customer, branch, dates and lines as the business's settings make them. */
const draftContent = async (r: Repos, actor: Actor, type: InvoiceType, cmd: InvoiceContent, now: Date): Promise<E.Either<DraftFailure, Omit<Invoice, 'id' | 'businessId' | 'number' | 'status' | 'amountPaid' | 'payments' | 'shareToken' | 'convertedFrom' | 'createdBy' | 'createdAt' | 'updatedAt' | 'sentAt' | 'cancelledAt'>>> => {
  const business = await r.businesses.findById(actor.businessId);
  if (!business) throw new Error(`business ${actor.businessId} of an authenticated actor does not exist`);
  if (type === 'TAX_INVOICE' && !(business.vatRegistered && business.tin)) return E.left({ _tag: 'VatNotRegistered' });
  const customer = await r.customers.findById(actor.businessId, cmd.customerId);
  if (!customer) return E.left({ _tag: 'UnknownInvoiceCustomer', customerId: cmd.customerId });
  const branch = await stockBranchFor(r, actor, cmd.branchId);
  if (E.isLeft(branch)) return branch;
  const ids = [...new Set(cmd.lines.flatMap((l) => (l.productId ? [l.productId] : [])))];
  const products = new Map<string, ProductFacts>((await r.products.findMany(actor.businessId, ids)).filter((p) => p.archivedAt === null).map((p) => [p.id, p]));
  const priced = priceInvoice(cmd.lines, products, vatModeOf(business));
  if (!priced.ok) return E.left(priced.failure);
  const issueDate = cmd.issueDate ?? lagosDate(now);
  const paymentTermsDays = cmd.paymentTermsDays ?? business.paymentTermsDays;
  return E.right({ type, customerId: cmd.customerId, customerName: customer.name, customerPhone: customer.phone, branchId: branch.right.id, issueDate, dueDate: addDays(issueDate, paymentTermsDays), paymentTermsDays, notes: cmd.notes ?? null, ...priced.value });
};

/** A new DRAFT (no number, no stock moved). A TAX_INVOICE needs a VAT-registered business with a TIN. Owner and staff. */
export const createInvoice =
  (deps: Deps) =>
  async (actor: Actor, cmd: CreateInvoiceCommand): Promise<E.Either<DraftFailure, Invoice>> => {
    const broken = checkLineAmounts(cmd.lines);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const now = deps.clock.now();
      const content = await draftContent(r, actor, cmd.type, cmd, now);
      if (E.isLeft(content)) return content;
      const invoice: Invoice = {
        id: deps.crypto.uuid(), businessId: actor.businessId, number: null, status: 'DRAFT', amountPaid: kobo(0), payments: [], shareToken: newShareToken(deps.crypto),
        convertedFrom: null, createdBy: actor.userId, createdAt: now, updatedAt: now, sentAt: null, cancelledAt: null, ...content.right,
      };
      await r.invoices.add(invoice);
      return E.right(invoice);
    });
  };

/** Replaces a draft's content (its type stays); a sent invoice is 409 INVOICE_NOT_DRAFT. */
export const updateInvoice =
  (deps: Deps) =>
  async (actor: Actor, id: string, cmd: InvoiceContent): Promise<E.Either<DraftFailure | InvoiceNotDraft, Invoice>> => {
    const broken = checkLineAmounts(cmd.lines);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const found = await r.invoices.findById(actor.businessId, id, { forUpdate: true });
      if (!found) return E.left(notFound);
      if (found.status !== 'DRAFT') return E.left({ _tag: 'InvoiceNotDraft', status: found.status });
      const now = deps.clock.now();
      const content = await draftContent(r, actor, found.type, cmd, now);
      if (E.isLeft(content)) return content;
      const invoice: Invoice = { ...found, ...content.right, updatedAt: now };
      await r.invoices.save(invoice);
      return E.right(invoice);
    });
  };

/** Deletes a draft; a sent invoice is 409 INVOICE_NOT_DRAFT (cancel it instead). */
export const deleteInvoice =
  (deps: Pick<Deps, 'uow'>) =>
  (actor: Actor, id: string): Promise<E.Either<NotFound | InvoiceNotDraft, void>> =>
    deps.uow.run(async (r) => {
      const found = await r.invoices.findById(actor.businessId, id, { forUpdate: true });
      if (!found) return E.left(notFound);
      if (found.status !== 'DRAFT') return E.left({ _tag: 'InvoiceNotDraft', status: found.status });
      await r.invoices.remove(actor.businessId, id);
      return E.right(undefined);
    });

/** A shortage names the product and its line (its index in lines), as a sale's does. */
export type InvoiceSendFailure = NotFound | InvoiceNotDraft | (InsufficientStock & { readonly name: string; readonly index: number });

/**
 * DRAFT -> SENT in one transaction: the invoice's row is locked first (two sends: the second sees SENT), an
 * INVOICE or TAX_INVOICE takes its product lines from its branch (409 INSUFFICIENT_STOCK naming the product
 * and branch, nothing written) and fixes their unit cost, and the series' gap-free number is taken last.
 */
export const sendInvoice =
  (deps: Deps) =>
  (actor: Actor, id: string): Promise<E.Either<InvoiceSendFailure, Invoice>> =>
    deps.uow.run(async (r) => {
      const found = await r.invoices.findById(actor.businessId, id, { forUpdate: true });
      if (!found) return E.left(notFound);
      if (found.status !== 'DRAFT') return E.left({ _tag: 'InvoiceNotDraft', status: found.status });
      // the customer's row before any stock row: a credit sale locks them in that order too
      const customer = takesStock(found.type) ? await r.customers.findById(actor.businessId, found.customerId, { forUpdate: true }) : undefined;
      const now = deps.clock.now();
      const ids = [...new Set(found.lines.flatMap((l) => (l.productId ? [l.productId] : [])))];
      const products = new Map((await r.products.findMany(actor.businessId, ids)).map((p) => [p.id, p]));
      let lines = found.lines;
      if (takesStock(found.type)) {
        lines = found.lines.map((l) => (l.productId ? { ...l, unitCost: products.get(l.productId)?.costPrice ?? null } : l));
        const wanted = new Map<string, number>();
        for (const l of found.lines) if (l.productId && products.get(l.productId)?.type === 'PRODUCT') wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
        // in product id order: the one lock order of every writer of stock
        const takes = [...wanted.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
        const moved = await moveStocks(deps, r, actor, takes.map(([productId, quantity]) => ({ productId, branchId: found.branchId, change: -quantity, reason: 'INVOICE' as const, at: now, note: `invoice ${id}` })));
        if (!moved.ok) {
          const [productId, requested] = takes[moved.index]!;
          const index = found.lines.findIndex((l) => l.productId === productId);
          const branch = await r.branches.findById(actor.businessId, found.branchId, { includeArchived: true });
          return rollback(E.left({ _tag: 'InsufficientStock' as const, list: 'lines' as const, productId, name: products.get(productId)!.name, index, available: moved.refusal?.available ?? 0, requested, branchId: found.branchId, branchName: branch?.name ?? found.branchId }));
        }
      }
      const number = await r.invoices.nextNumber(actor.businessId, seriesOf(found.type));
      const invoice: Invoice = { ...found, lines, number, status: 'SENT', sentAt: now, updatedAt: now };
      await r.invoices.save(invoice);
      // a proforma only quotes: it is owed by nobody
      if (customer) await invoiceCredit(deps, r, actor, customer, invoice, 'INVOICE', invoice.total);
      await r.events.record(now, invoiceSent(invoice, actor.userId));
      return E.right(invoice);
    });

/** A sent invoice with no payments is CANCELLED and its stock goes back to its branch; with payments, 409 INVOICE_HAS_PAYMENTS. Owner only. */
export const cancelInvoice =
  (deps: Deps) =>
  (actor: Actor, id: string): Promise<E.Either<NotFound | InvoiceHasPayments | InvoiceWrongState, Invoice>> =>
    deps.uow.run(async (r) => {
      const found = await r.invoices.findById(actor.businessId, id, { forUpdate: true });
      if (!found) return E.left(notFound);
      if (found.status !== 'SENT' && found.status !== 'PARTIALLY_PAID' && found.status !== 'PAID') return E.left({ _tag: 'InvoiceWrongState', status: found.status, type: found.type, wanted: 'a sent invoice' });
      if (found.amountPaid > 0) return E.left({ _tag: 'InvoiceHasPayments', amountPaid: found.amountPaid });
      const now = deps.clock.now();
      if (takesStock(found.type)) {
        const ids = [...new Set(found.lines.flatMap((l) => (l.productId ? [l.productId] : [])))];
        const products = new Map((await r.products.findMany(actor.businessId, ids)).map((p) => [p.id, p]));
        const back = new Map<string, number>();
        for (const l of found.lines) if (l.productId && products.get(l.productId)?.type === 'PRODUCT') back.set(l.productId, (back.get(l.productId) ?? 0) + l.quantity);
        const moves = [...back.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
        const moved = await moveStocks(deps, r, actor, moves.map(([productId, quantity]) => ({ productId, branchId: found.branchId, change: quantity, reason: 'INVOICE_CANCEL' as const, at: now, note: `invoice ${found.number}` })));
        if (!moved.ok) throw new Error(`stock of invoice ${id} could not be returned`);
      }
      const invoice: Invoice = { ...found, status: 'CANCELLED', cancelledAt: now, updatedAt: now };
      await r.invoices.save(invoice);
      if (takesStock(found.type)) {
        const customer = await r.customers.findById(actor.businessId, found.customerId, { forUpdate: true });
        if (customer) await invoiceCredit(deps, r, actor, customer, invoice, 'INVOICE_CANCEL', kobo(-(found.total - found.amountPaid)));
      }
      await r.events.record(now, invoiceCancelled(invoice, actor.userId));
      return E.right(invoice);
    });

/** A sent proforma becomes a new INVOICE draft with its customer, branch and lines (priced again at today's settings). */
export const convertProforma =
  (deps: Deps) =>
  (actor: Actor, id: string): Promise<E.Either<NotFound | InvoiceWrongState | DraftFailure, Invoice>> =>
    deps.uow.run(async (r) => {
      const found = await r.invoices.findById(actor.businessId, id);
      if (!found) return E.left(notFound);
      if (found.type !== 'PROFORMA' || found.status !== 'SENT') return E.left({ _tag: 'InvoiceWrongState', status: found.status, type: found.type, wanted: 'a sent proforma' });
      const now = deps.clock.now();
      const lines: InvoiceLineInput[] = found.lines.map((l) => ({
        ...(l.productId ? { productId: l.productId } : { vatExempt: l.vatRate === 0 && found.pricesIncludeVat !== null }),
        description: l.description, quantity: l.quantity, unitPrice: l.unitPrice, discount: l.discount,
      }));
      const content = await draftContent(r, actor, 'INVOICE', { customerId: found.customerId, branchId: found.branchId, paymentTermsDays: found.paymentTermsDays, lines, notes: found.notes }, now);
      if (E.isLeft(content)) return content;
      const invoice: Invoice = {
        id: deps.crypto.uuid(), businessId: actor.businessId, number: null, status: 'DRAFT', amountPaid: kobo(0), payments: [], shareToken: newShareToken(deps.crypto),
        convertedFrom: found.id, createdBy: actor.userId, createdAt: now, updatedAt: now, sentAt: null, cancelledAt: null, ...content.right,
      };
      await r.invoices.add(invoice);
      return E.right(invoice);
    });

export const getInvoice =
  (deps: { uow: UnitOfWork<InvoiceRepositories> }) =>
  async (actor: Actor, id: string): Promise<E.Either<NotFound, Invoice>> => {
    const found = await deps.uow.read((r) => r.invoices.findById(actor.businessId, id));
    return found ? E.right(found) : E.left(notFound);
  };

export const listInvoices =
  (deps: { uow: UnitOfWork<InvoiceRepositories> }) =>
  (actor: Actor, page: PageRequest<InvoiceSort>, filter: InvoiceFilter): Promise<Page<Invoice>> =>
    deps.uow.read((r) => r.invoices.list(actor.businessId, page, filter));
