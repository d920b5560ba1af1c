import { randomUUID } from 'node:crypto';
import type { Branch, Business, Membership, User } from '../../domain/business.js';
import type { E164Phone } from '../../domain/phone.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import type { AppRepositories } from '../../bootstrap/persistence.js';
import type { Session } from '../../application/auth/ports.js';
import type { Product } from '../../domain/product.js';
import type { Customer } from '../../domain/customer.js';
import type { CreditEntry } from '../../domain/credit.js';
import { tendersOf, type SaleDraft } from '../../domain/sale.js';
import { DEFAULT_VAT_SETTINGS } from '../../domain/vat.js';
import { DEFAULT_INVOICE_SETTINGS, type Invoice } from '../../domain/invoice.js';
import { kobo } from '../../domain/money.js';

/** Test data builders: a valid thing by default, the fields a test cares about as overrides. */
export const NOW = new Date('2026-11-22T12:00:00.000Z');

let counter = 0;
const unique = () => String(counter++ % 1_000_000_000).padStart(9, '0');

export const aUser = (o: Partial<User> = {}): User => ({
  id: randomUUID(),
  phone: `+2348${unique()}` as E164Phone,
  email: null,
  firstName: 'ada',
  lastName: 'obi',
  verifiedAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  ...o,
});

export const aBusiness = (o: Partial<Business> = {}): Business => ({
  id: randomUUID(),
  name: 'Ada Stores',
  phone: null,
  email: null,
  address: null,
  category: null,
  logoUrl: null,
  plan: 'FREE',
  ...DEFAULT_VAT_SETTINGS,
    ...DEFAULT_INVOICE_SETTINGS,
  currency: 'NGN',
  timezone: 'Africa/Lagos',
  createdAt: NOW,
  updatedAt: NOW,
  ...o,
});

export const aBranch = (businessId: string, o: Partial<Branch> = {}): Branch => ({
  id: randomUUID(),
  businessId,
  name: 'main',
  address: null,
  phone: null,
  isDefault: false,
  archivedAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  ...o,
});

let skuCounter = 0;
/** An active product (no stock) of the business. */
export const aProduct = (businessId: string, o: Partial<Product> = {}): Product => ({
  id: randomUUID(),
  businessId,
  name: 'rice',
  sku: `SKU-${skuCounter++}-${randomUUID().slice(0, 4)}`,
  price: kobo(950_000),
  costPrice: null,
  quantity: 0,
  category: null,
  type: 'PRODUCT',
  lowStockThreshold: null,
  barcode: null,
  unit: null,
  vatExempt: false,
  archivedAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  ...o,
});

/** A live session (a sign-in) of the user, 30 days from NOW. */
export const aSession = (userId: string, o: Partial<Session> = {}): Session => ({
  id: randomUUID(),
  userId,
  createdAt: NOW,
  lastUsedAt: NOW,
  expiresAt: new Date(NOW.getTime() + 30 * 86_400_000),
  userAgent: null,
  ip: null,
  revokedAt: null,
  ...o,
});

/** A business with its default branch and an active owner, committed through the ports. */
export const seedTenant = async (uow: UnitOfWork<AppRepositories>, o: { business?: Partial<Business>; at?: Date } = {}) => {
  const at = o.at ?? NOW;
  const user = aUser({ createdAt: at, updatedAt: at });
  const business = aBusiness({ createdAt: at, updatedAt: at, ...o.business });
  const branch = aBranch(business.id, { isDefault: true, createdAt: at, updatedAt: at });
  const membership: Membership = {
    id: randomUUID(),
    businessId: business.id,
    userId: user.id,
    role: 'BUSINESS_OWNER',
    branchId: branch.id,
    status: 'ACTIVE',
    createdAt: at,
    updatedAt: at,
  };
  await uow.run(async (r) => {
    await r.users.add(user);
    await r.businesses.add(business);
    await r.branches.add(branch);
    await r.memberships.add(membership);
  });
  return { user, business, branch, membership, actor: { userId: user.id, businessId: business.id, roles: ['BUSINESS_OWNER' as const] } };
};

/** A customer of the business with a phone of their own, owing nothing, no credit limit. */
export const aCustomer = (businessId: string, o: Partial<Customer> = {}): Customer => ({
  id: randomUUID(),
  businessId,
  name: 'chidi',
  phone: `+2347${unique()}`,
  email: null,
  address: null,
  notes: null,
  creditLimit: null,
  creditBalance: kobo(0),
  notificationsOptOut: false,
  createdAt: NOW,
  updatedAt: NOW,
  ...o,
});

/**
 * A completed sale of one line (1 x `total`, default 1,000.00 naira) made by the tenant's owner at its
 * default branch. Paid in full unless `amountPaid` says otherwise (nothing on CREDIT); what is left
 * unpaid is owed by its customer (`creditOutstanding`), if it has one.
 */
export const aSale = (
  t: { business: { id: string }; branch: { id: string }; user: { id: string } },
  productId: string,
  o: Partial<SaleDraft> = {},
): SaleDraft => {
  const total = o.total ?? kobo(100_000);
  const amountPaid = o.amountPaid ?? (o.paymentMethod === 'CREDIT' ? kobo(0) : total);
  const balanceDue = kobo(total - amountPaid);
  const sale: Omit<SaleDraft, 'payments'> & { payments?: SaleDraft['payments'] } = {
    id: randomUUID(),
    businessId: t.business.id,
    branchId: t.branch.id,
    customerId: null,
    paymentMethod: 'CASH',
    lines: [{ productId, name: 'rice', sku: 'RICE-1', quantity: 1, unitPrice: total, discount: kobo(0), lineTotal: total, costPrice: null }],
    subtotal: total,
    discount: kobo(0),
    lineDiscountTotal: kobo(0),
    total,
    amountPaid,
    amountTendered: null,
    changeDue: null,
    balanceDue,
    status: 'COMPLETED',
    note: null,
    createdBy: t.user.id,
    createdAt: NOW,
    voidedAt: null,
    voidReason: null,
    voidedBy: null,
    creditOutstanding: o.customerId ? balanceDue : kobo(0),
    refundAmount: null,
    ...o,
  };
  // the tenders of the old shape (docs/adr/0055), unless the test names its own
  return { ...sale, payments: o.payments ?? tendersOf(sale.paymentMethod, sale.total, sale.amountPaid) };
};

/** A credit-ledger entry of the customer: by default a credit sale of 1,000.00 naira owed from nothing. */
export const aCreditEntry = (customer: Pick<Customer, 'id' | 'businessId'>, o: Partial<CreditEntry> = {}): CreditEntry => ({
  id: randomUUID(),
  businessId: customer.businessId,
  customerId: customer.id,
  kind: 'SALE',
  amount: 100_000,
  balanceAfter: kobo(100_000),
  saleId: null,
  invoiceId: null,
  method: null,
  note: null,
  createdBy: randomUUID(),
  createdAt: NOW,
  ...o,
});

/** A tenant (see seedTenant) with one product to sell, committed. */
export const seedShop = async (uow: UnitOfWork<AppRepositories>, o: { business?: Partial<Business>; at?: Date } = {}) => {
  const t = await seedTenant(uow, o);
  const product = aProduct(t.business.id);
  await uow.run(async (r) => void (await r.products.add(product)));
  return { ...t, product };
};

/** An invoice of `shop`'s business to `customer`: a draft with no lines unless the overrides say otherwise. */
export const anInvoice = (
  shop: { business: { id: string }; branch: { id: string }; user: { id: string } },
  customer: Pick<Customer, 'id' | 'name' | 'phone'>,
  o: Partial<Invoice> = {},
): Invoice => ({
  id: randomUUID(), businessId: shop.business.id, type: 'INVOICE', number: null, status: 'DRAFT', customerId: customer.id, customerName: customer.name, customerPhone: customer.phone,
  branchId: shop.branch.id, issueDate: '2026-11-20', dueDate: '2026-12-04', paymentTermsDays: 14, lines: [], subtotal: kobo(0), discountTotal: kobo(0), vatTotal: kobo(0),
  total: kobo(0), amountPaid: kobo(0), pricesIncludeVat: null, notes: null, payments: [], shareToken: randomUUID().replace(/-/g, ''), convertedFrom: null,
  createdBy: shop.user.id, createdAt: NOW, updatedAt: NOW, sentAt: null, cancelledAt: null, ...o,
});
