import { kobo, MAX_KOBO, type Kobo } from './money.js';
import { lagosDate } from './lagos-time.js';
import { lineVatRate, vatOn, type VatMode, type VatRate } from './vat.js';

// Customer invoices (issue 35, docs/adr/0072): a request for payment with a due date, numbered when sent.

export const INVOICE_TYPES = ['INVOICE', 'PROFORMA', 'TAX_INVOICE'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const INVOICE_STATUSES = ['DRAFT', 'SENT', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_PAYMENT_METHODS = ['CASH', 'TRANSFER', 'CARD', 'POS', 'ONLINE'] as const;
export type InvoicePaymentMethod = (typeof INVOICE_PAYMENT_METHODS)[number];
/** What a person records by hand; ONLINE payments come only through the payment gateway. */
export const MANUAL_PAYMENT_METHODS = ['CASH', 'TRANSFER', 'CARD', 'POS'] as const;

export const MAX_PAYMENT_TERMS_DAYS = 365;
export const DEFAULT_PAYMENT_TERMS_DAYS = 30;
export const MAX_INVOICE_LINES = 200;
export const MAX_INVOICE_QUANTITY = 1_000_000;
/** A Nigerian bank account number (NUBAN): 10 digits. */
export const NUBAN_PATTERN = /^\d{10}$/;

/** The business's invoice settings: flat fields of PUT /businesses/me. */
export interface InvoiceSettings {
  readonly paymentTermsDays: number;
  readonly bankName: string | null;
  readonly accountNumber: string | null;
  readonly accountName: string | null;
  readonly invoiceFooter: string | null;
}
export const DEFAULT_INVOICE_SETTINGS: InvoiceSettings = { paymentTermsDays: DEFAULT_PAYMENT_TERMS_DAYS, bankName: null, accountNumber: null, accountName: null, invoiceFooter: null };

export interface InvoiceLine {
  readonly position: number;
  /** null: an ad-hoc line ("Delivery fee"), which moves no stock. */
  readonly productId: string | null;
  readonly description: string;
  readonly quantity: number;
  readonly unitPrice: Kobo;
  /** An amount off the line, as on sales. */
  readonly discount: Kobo;
  readonly vatRate: VatRate;
  readonly vatAmount: Kobo;
  /** quantity x unit_price - discount. */
  readonly lineTotal: Kobo;
  /** The product's cost price per unit, fixed when the invoice is sent (cost of goods); null before or unknown. */
  readonly unitCost: Kobo | null;
}

export interface InvoicePayment {
  readonly id: string;
  readonly amount: Kobo;
  readonly method: InvoicePaymentMethod;
  readonly paidAt: Date;
  readonly reference: string | null;
  readonly createdBy: string | null;
  readonly createdAt: Date;
}

export interface Invoice {
  readonly id: string;
  readonly businessId: string;
  readonly type: InvoiceType;
  /** null while DRAFT. */
  readonly number: string | null;
  readonly status: InvoiceStatus;
  readonly customerId: string;
  /** The customer as they are now (read with the invoice). */
  readonly customerName: string;
  readonly customerPhone: string | null;
  readonly branchId: string;
  /** Lagos dates (YYYY-MM-DD). */
  readonly issueDate: string;
  readonly dueDate: string;
  readonly paymentTermsDays: number;
  readonly lines: readonly InvoiceLine[];
  readonly subtotal: Kobo;
  readonly discountTotal: Kobo;
  readonly vatTotal: Kobo;
  readonly total: Kobo;
  readonly amountPaid: Kobo;
  /** Prices held the VAT (true) or it was added (false); null: no VAT (the business was not registered). */
  readonly pricesIncludeVat: boolean | null;
  readonly notes: string | null;
  readonly payments: readonly InvoicePayment[];
  /** The share link's secret (docs/adr/0074). */
  readonly shareToken: string;
  /** The proforma this invoice was converted from. */
  readonly convertedFrom: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly sentAt: Date | null;
  readonly cancelledAt: Date | null;
}

export const balanceDue = (i: Pick<Invoice, 'total' | 'amountPaid'>): Kobo => kobo(i.total - i.amountPaid);

/** Due date passed in Lagos and something still owed (never a draft, proforma or cancelled invoice). */
export const isOverdue = (i: Pick<Invoice, 'status' | 'dueDate' | 'total' | 'amountPaid'>, now: Date): boolean =>
  (i.status === 'SENT' || i.status === 'PARTIALLY_PAID') && i.dueDate < lagosDate(now) && balanceDue(i) > 0;

/** A Lagos date plus n days. */
export const addDays = (isoDate: string, days: number): string => new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The numbering series: proformas PRF-, invoices and tax invoices INV-. */
export type InvoiceSeries = 'INV' | 'PRF';
export const seriesOf = (type: InvoiceType): InvoiceSeries => (type === 'PROFORMA' ? 'PRF' : 'INV');
export const formatInvoiceNumber = (series: InvoiceSeries, n: number): string => `${series}-${String(n).padStart(6, '0')}`;

// Failures
export type InvoiceNotDraft = { readonly _tag: 'InvoiceNotDraft'; readonly status: InvoiceStatus };
export type InvoiceNotPayable = { readonly _tag: 'InvoiceNotPayable'; readonly status: InvoiceStatus; readonly type: InvoiceType };
export type InvoiceHasPayments = { readonly _tag: 'InvoiceHasPayments'; readonly amountPaid: Kobo };
export type AmountExceedsBalance = { readonly _tag: 'AmountExceedsBalance'; readonly balance: Kobo; readonly amount: Kobo };
export type VatNotRegistered = { readonly _tag: 'VatNotRegistered' };
/** Convert takes a SENT proforma; cancel takes a sent invoice. */
export type InvoiceWrongState = { readonly _tag: 'InvoiceWrongState'; readonly status: InvoiceStatus; readonly type: InvoiceType; readonly wanted: string };
/** A line names a product the business does not have (or archived). */
export type UnknownInvoiceProduct = { readonly _tag: 'UnknownInvoiceProduct'; readonly indexes: readonly number[] };
/** A line's discount above its quantity x unit price, or totals beyond what kobo can hold. */
export type InvoiceAmountsInvalid = { readonly _tag: 'InvoiceAmountsInvalid'; readonly field: string; readonly message: string };
export type UnknownInvoiceCustomer = { readonly _tag: 'UnknownInvoiceCustomer'; readonly customerId: string };

/** A line as requested: a product's (price defaults to its price) or ad hoc (description and unit price required). */
export interface InvoiceLineInput {
  readonly productId?: string;
  readonly description?: string;
  readonly quantity: number;
  readonly unitPrice?: Kobo;
  readonly discount?: Kobo;
  /** An ad-hoc line carries the business's VAT rate unless it says it is exempt. */
  readonly vatExempt?: boolean;
}

export interface ProductFacts {
  readonly name: string;
  readonly price: Kobo;
  readonly vatExempt: boolean;
}

export interface PricedInvoice {
  readonly lines: InvoiceLine[];
  readonly subtotal: Kobo;
  readonly discountTotal: Kobo;
  readonly vatTotal: Kobo;
  readonly total: Kobo;
  readonly pricesIncludeVat: boolean | null;
}

/**
 * Prices an invoice's lines with the one VAT rule (domain/vat.ts, docs/adr/0054): each line's VAT on its
 * line total at its own rate (an exempt product or ad-hoc line: 0), the invoice's VAT the sum of its lines';
 * total = the lines' totals (plus their VAT where prices exclude it); subtotal = total - VAT.
 */
export const priceInvoice = (
  inputs: readonly InvoiceLineInput[],
  products: ReadonlyMap<string, ProductFacts>,
  vat: VatMode | null,
): { ok: true; value: PricedInvoice } | { ok: false; failure: UnknownInvoiceProduct | InvoiceAmountsInvalid } => {
  const unknown = inputs.flatMap((l, i) => (l.productId !== undefined && !products.has(l.productId) ? [i] : []));
  if (unknown.length > 0) return { ok: false, failure: { _tag: 'UnknownInvoiceProduct', indexes: unknown } };
  const lines: InvoiceLine[] = [];
  for (const [i, l] of inputs.entries()) {
    const product = l.productId !== undefined ? products.get(l.productId)! : undefined;
    const unitPrice = l.unitPrice ?? product?.price;
    const description = l.description ?? product?.name;
    if (unitPrice === undefined) return { ok: false, failure: { _tag: 'InvoiceAmountsInvalid', field: `lines.${i}.unit_price`, message: 'is required on a line without a product' } };
    if (description === undefined) return { ok: false, failure: { _tag: 'InvoiceAmountsInvalid', field: `lines.${i}.description`, message: 'is required on a line without a product' } };
    const discount = l.discount ?? kobo(0);
    const gross = l.quantity * unitPrice;
    if (!Number.isSafeInteger(gross) || gross > MAX_KOBO) return { ok: false, failure: { _tag: 'InvoiceAmountsInvalid', field: `lines.${i}.quantity`, message: 'quantity x unit_price is more than 1000000000000.00' } };
    if (discount > gross) return { ok: false, failure: { _tag: 'InvoiceAmountsInvalid', field: `lines.${i}.discount`, message: 'must not be more than quantity x unit_price' } };
    const lineTotal = kobo(gross - discount);
    const vatRate = vat ? lineVatRate(vat, product ? product.vatExempt : l.vatExempt === true) : 0;
    const vatAmount = vat ? vatOn(lineTotal, vatRate, vat.pricesIncludeVat) : kobo(0);
    lines.push({ position: i, productId: l.productId ?? null, description, quantity: l.quantity, unitPrice, discount, vatRate, vatAmount, lineTotal, unitCost: null });
  }
  const sum = (f: (l: InvoiceLine) => number) => lines.reduce((n, l) => n + f(l), 0);
  const vatTotal = sum((l) => l.vatAmount);
  const total = sum((l) => l.lineTotal) + (vat && !vat.pricesIncludeVat ? vatTotal : 0);
  if (total > MAX_KOBO) return { ok: false, failure: { _tag: 'InvoiceAmountsInvalid', field: 'lines', message: 'the invoice total is more than 1000000000000.00' } };
  return {
    ok: true,
    value: { lines, subtotal: kobo(total - vatTotal), discountTotal: kobo(sum((l) => l.discount)), vatTotal: kobo(vatTotal), total: kobo(total), pricesIncludeVat: vat ? vat.pricesIncludeVat : null },
  };
};

/** Whether a payment of `amount` may be taken, and the status after it. */
export const decidePayment = (i: Pick<Invoice, 'status' | 'type' | 'total' | 'amountPaid'>, amount: Kobo): { ok: true; status: InvoiceStatus } | { ok: false; failure: InvoiceNotPayable | AmountExceedsBalance } => {
  if (i.type === 'PROFORMA' || (i.status !== 'SENT' && i.status !== 'PARTIALLY_PAID')) return { ok: false, failure: { _tag: 'InvoiceNotPayable', status: i.status, type: i.type } };
  const balance = balanceDue(i);
  if (amount > balance) return { ok: false, failure: { _tag: 'AmountExceedsBalance', balance, amount } };
  return { ok: true, status: amount === balance ? 'PAID' : 'PARTIALLY_PAID' };
};

/** Stock moves with an INVOICE or TAX_INVOICE when sent; a proforma only quotes. */
export const takesStock = (type: InvoiceType): boolean => type !== 'PROFORMA';

/** The reminders an invoice's customer gets (docs/adr/0077): the day before its due date, and once on its first day overdue. */
export const INVOICE_REMINDER_KINDS = ['BEFORE_DUE', 'OVERDUE'] as const;
export type InvoiceReminderKind = (typeof INVOICE_REMINDER_KINDS)[number];
/** Reminders go out from this Lagos time of day (not at midnight). */
export const REMINDERS_FROM = '09:00';

/** The due date of the invoices that get the `kind` reminder on the Lagos day `today`. */
export const reminderDueDate = (kind: InvoiceReminderKind, today: string): string => addDays(today, kind === 'BEFORE_DUE' ? 1 : -1);

/**
 * Is the `kind` reminder due for this invoice on the Lagos day `today`: an invoice that asks for money (not a
 * proforma), sent and not settled or cancelled, with a balance, due tomorrow (BEFORE_DUE) or due yesterday (OVERDUE)?
 */
export const isReminderDue = (i: Pick<Invoice, 'type' | 'status' | 'dueDate' | 'total' | 'amountPaid'>, kind: InvoiceReminderKind, today: string): boolean =>
  i.type !== 'PROFORMA' && (i.status === 'SENT' || i.status === 'PARTIALLY_PAID') && balanceDue(i) > 0 && i.dueDate === reminderDueDate(kind, today);
