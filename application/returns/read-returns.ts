import * as E from 'fp-ts/lib/Either.js';
import type { Branch, Business, User } from '../../domain/business.js';
import type { Customer } from '../../domain/customer.js';
import type { Actor } from '../../domain/roles.js';
import type { SaleReturn } from '../../domain/sale-return.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { AuthRepositories } from '../auth/ports.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { ReturnFilter, ReturnRepositories, ReturnSort } from './ports.js';

/** Returns of the business, newest first by default; list items carry no lines. */
export const listReturns =
  (deps: { uow: UnitOfWork<ReturnRepositories> }) =>
  (actor: Actor, page: PageRequest<ReturnSort>, filter: ReturnFilter): Promise<Page<SaleReturn>> =>
    deps.uow.read((r) => r.saleReturns.list(actor.businessId, page, filter));

/** A return with its lines. */
export const getReturn =
  (deps: { uow: UnitOfWork<ReturnRepositories> }) =>
  async (actor: Actor, returnId: string): Promise<E.Either<NotFound, SaleReturn>> => {
    const found = await deps.uow.read((r) => r.saleReturns.findById(actor.businessId, returnId));
    return found ? E.right(found) : E.left(notFound);
  };

/** A sale's returns, oldest first (what GET /sales/{id} shows beside the sale). */
export const returnsOfSale =
  (deps: { uow: UnitOfWork<ReturnRepositories> }) =>
  (actor: Actor, saleId: string): Promise<SaleReturn[]> =>
    deps.uow.read((r) => r.saleReturns.ofSale(actor.businessId, saleId));

/** What a refund receipt shows: the return, who took it back where, and the business's details. */
export interface ReturnReceipt {
  readonly saleReturn: SaleReturn;
  readonly business: Business;
  readonly branch: Branch | undefined;
  readonly cashier: User | undefined;
  readonly customer: Customer | undefined;
}

/** The refund receipt of a return. */
export const getReturnReceipt =
  (deps: { uow: UnitOfWork<ReturnRepositories & Pick<BusinessRepositories, 'businesses' | 'branches'> & Pick<AuthRepositories, 'users'> & Pick<CustomerRepositories, 'customers'>> }) =>
  (actor: Actor, returnId: string): Promise<E.Either<NotFound, ReturnReceipt>> =>
    deps.uow.read(async (r) => {
      const saleReturn = await r.saleReturns.findById(actor.businessId, returnId);
      if (!saleReturn) return E.left(notFound);
      const [business, branch, cashier, customer] = await Promise.all([
        r.businesses.findById(actor.businessId),
        // archived branches still name the place of an old return
        r.branches.findById(actor.businessId, saleReturn.branchId, { includeArchived: true }),
        r.users.findById(saleReturn.createdBy),
        saleReturn.customerId ? r.customers.findById(actor.businessId, saleReturn.customerId) : undefined,
      ]);
      return E.right({ saleReturn, business: business!, branch, cashier, customer });
    });
