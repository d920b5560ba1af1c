import * as E from 'fp-ts/lib/Either.js';
import type { Branch, Business, User } from '../../domain/business.js';
import type { Actor } from '../../domain/roles.js';
import type { Sale } from '../../domain/sale.js';
import type { Customer } from '../../domain/customer.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { AuthRepositories } from '../auth/ports.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { SaleFilter, SaleRepositories, SaleSort } from './ports.js';
import type { PartnerRepositories } from '../partners/ports.js';
import type { PartnerBranding } from '../../domain/partner.js';

export const listSales =
  (deps: { uow: UnitOfWork<SaleRepositories> }) =>
  (actor: Actor, page: PageRequest<SaleSort>, filter: SaleFilter): Promise<Page<Sale>> =>
    deps.uow.read((r) => r.sales.list(actor.businessId, page, filter));

export const getSale =
  (deps: { uow: UnitOfWork<SaleRepositories> }) =>
  async (actor: Actor, saleId: string): Promise<E.Either<NotFound, Sale>> => {
    const sale = await deps.uow.read((r) => r.sales.findById(actor.businessId, saleId));
    return sale ? E.right(sale) : E.left(notFound);
  };

/** What a receipt shows: the sale, who sold it where, and the business's details. */
export interface Receipt {
  readonly sale: Sale;
  readonly business: Business;
  readonly branch: Branch | undefined;
  readonly cashier: User | undefined;
  /** The sale's customer, when it has one. */
  readonly customer: Customer | undefined;
  /** The partner whose network the business is in, with its branding (printed at the foot of the PDF). */
  readonly partner?: { readonly name: string; readonly branding: PartnerBranding };
}

/** A receipt by sale id or by receipt number. */
export const getReceipt =
  (deps: {
    uow: UnitOfWork<SaleRepositories & Pick<BusinessRepositories, 'businesses' | 'branches'> & Pick<AuthRepositories, 'users'> & Pick<CustomerRepositories, 'customers'> & Pick<PartnerRepositories, 'partners' | 'partnerNetwork'>>;
  }) =>
  (actor: Actor, by: { saleId: string } | { receiptNumber: string }): Promise<E.Either<NotFound, Receipt>> =>
    deps.uow.read(async (r) => {
      const sale = 'saleId' in by ? await r.sales.findById(actor.businessId, by.saleId) : await r.sales.findByReceiptNumber(actor.businessId, by.receiptNumber);
      if (!sale) return E.left(notFound);
      const business = (await r.businesses.findById(actor.businessId))!;
      // archived branches still name the place of an old sale
      const branch = await r.branches.findById(actor.businessId, sale.branchId, { includeArchived: true });
      const cashier = await r.users.findById(sale.createdBy);
      const customer = sale.customerId ? await r.customers.findById(actor.businessId, sale.customerId) : undefined;
      const membership = await r.partnerNetwork.membershipOf(actor.businessId);
      const partner = membership && (await r.partners.findById(membership.partnerId));
      return E.right({ sale, business, branch, cashier, customer, ...(partner ? { partner: { name: partner.name, branding: partner.branding } } : {}) });
    });
