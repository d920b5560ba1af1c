import type { CreditPaymentMethod } from '../../domain/credit.js';
import type { InvoicePaymentMethod } from '../../domain/invoice.js';
import type { Kobo, KoboSum } from '../../domain/money.js';
import type { ProductType } from '../../domain/product.js';
import type { DayRange } from '../../domain/report.js';
import type { PaymentMethod } from '../../domain/sale.js';
import type { RefundMethod } from '../../domain/sale-return.js';

// The reports module's port: read-only sums over sales, their lines, returns, the credit ledger, products and
// expenses. Sums are KoboSum (bigint: exact past 2^53 kobo, docs/adr/0038). Every method takes the business id (tenancy in the port). Sales count when COMPLETED
// (voided ones are left out of every figure but `voids`); days are Lagos days; a line's cost is the
// cost price stored on it when sold (a line without one costs 0); expenses count while not deleted.
// Figures are net of returns (docs/adr/0058): a return counts on the Lagos day its goods came back
// (as an expense on the day it was spent), taking what they were sold for off revenue and, when they
// went back on the shelf, their cost off the cost of goods.

/** What the sales, the credit ledger and the expenses of a range add up to. */
export interface PeriodSums {
  /** Sum of the totals of completed sales (after every discount), less what the range's returns were sold for; net of the VAT of both (docs/adr/0054). */
  readonly revenue: KoboSum;
  /** What the goods returned in the range were sold for, and how many returns. */
  readonly returns: KoboSum;
  readonly returnsCount: number;
  readonly salesCount: number;
  /** Sent invoices (not proformas, not cancelled) issued in the range (Lagos issue date), and their revenue (total less VAT), already in `revenue` (docs/adr/0074). */
  readonly invoiceCount: number;
  readonly invoiceRevenue: KoboSum;
  /** Line discounts plus sale discounts of completed sales, plus the discounts of those invoices. */
  readonly discounts: KoboSum;
  /** Sum of quantity x stored cost price over the lines of completed sales and of those invoices (unit cost fixed at send), less the cost of the range's restocked returns. */
  readonly costOfGoods: KoboSum;
  /** What completed sales left unpaid at the till (total - amount paid). */
  readonly creditGiven: KoboSum;
  /** Credit payments received. */
  readonly creditCollected: KoboSum;
  /** Live expenses; a VAT-registered business's net of the input VAT they hold. */
  readonly expenses: KoboSum;
}

/** A product's (or service's) sales in a range: units and line totals of completed sales (less their VAT when the prices held it), less the range's returns of it. */
export interface ProductSales {
  readonly productId: string;
  readonly name: string;
  readonly units: number;
  readonly revenue: KoboSum;
}

export interface CategoryAmount {
  readonly categoryId: string;
  readonly category: string;
  readonly amount: KoboSum;
}

/** One Lagos month (`2026-11`) of the profit and loss, or the whole range when `month` is null. */
export interface ProfitLossSums {
  readonly month: string | null;
  /** Net of the returns (`returns`: what their goods were sold for). */
  readonly revenue: KoboSum;
  readonly returns: KoboSum;
  readonly discounts: KoboSum;
  readonly costOfGoods: KoboSum;
  readonly expenses: readonly CategoryAmount[];
  readonly totalExpenses: KoboSum;
}

/** Stock of one product category (null: products without one); services and archived products are left out. */
export interface StockValue {
  readonly category: string | null;
  readonly products: number;
  readonly units: number;
  readonly atCost: KoboSum;
  readonly atPrice: KoboSum;
}

export interface StockAlertItem {
  readonly productId: string;
  readonly name: string;
  readonly sku: string;
  readonly category: string | null;
  readonly quantity: number;
  readonly lowStockThreshold: number | null;
}

/** Low stock: quantity at or below the threshold (0 included); out of stock: quantity 0. Goods only, not archived. */
export interface StockAlerts {
  readonly lowStockCount: number;
  readonly outOfStockCount: number;
  /** The first `limit` of each, fewest units first, then by name. */
  readonly lowStock: readonly StockAlertItem[];
  readonly outOfStock: readonly StockAlertItem[];
}

export interface MethodSum<M extends string> {
  readonly method: M;
  readonly count: number;
  readonly total: KoboSum;
}

/** One Lagos day at the till. */
export interface DaySums {
  /** Completed sales' tenders by method (docs/adr/0055): `count` is the sales with a tender of that method, `total` those tenders. */
  readonly sales: readonly MethodSum<PaymentMethod>[];
  /** Completed sales, their totals net of VAT, and their VAT (docs/adr/0054; 0 when not VAT-registered). */
  readonly salesCount: number;
  readonly revenue: KoboSum;
  readonly vat: KoboSum;
  /** Sales made that day and voided since. */
  readonly voids: { readonly count: number; readonly total: KoboSum };
  /** Returns made that day: how many, and what their goods were sold for. */
  readonly returns: { readonly count: number; readonly total: KoboSum };
  /** What those returns handed back (refund_amount), by refund method (CREDIT_NOTE: kept on account, no money moved). */
  readonly refunds: readonly MethodSum<RefundMethod>[];
  readonly discounts: KoboSum;
  readonly expenses: readonly MethodSum<string>[];
  readonly creditGiven: KoboSum;
  readonly creditCollected: readonly MethodSum<CreditPaymentMethod>[];
  /** Payments on invoices made that day (their paid_at, Lagos), by method (docs/adr/0074). */
  readonly invoicePayments: readonly MethodSum<InvoicePaymentMethod>[];
  /** What the till received in cash for sales: their CASH tenders. */
  readonly cashSalesReceived: KoboSum;
}

/** One product category's sales in a range (line totals; sale-level discounts are not split over categories), less the range's returns. */
export interface CategorySales {
  readonly category: string | null;
  readonly revenue: KoboSum;
  readonly units: number;
  readonly costOfGoods: KoboSum;
  readonly grossProfit: KoboSum;
  /** This category's share of the line totals of the range, per cent with 2 decimals; null when they are 0. */
  readonly sharePct: number | null;
}

/** One Lagos month (`2026-11`) of till activity, as a lender reads it (loan packs). */
export interface MonthActivity {
  readonly month: string;
  /** Completed sales: how many, and their totals less what the month's returns were sold for, net of the VAT of both. */
  readonly salesCount: number;
  readonly salesTotal: KoboSum;
  /** Their totals as charged (VAT included: what every tender adds up to), less what the month's returns were sold for. */
  readonly tenderedTotal: KoboSum;
  /** Sales made in the month and voided since. */
  readonly voidedCount: number;
  /** Completed sales with a TRANSFER tender, and with a CARD or POS tender: how many, and those tenders (less the month's returns of sales whose first tender is of that kind). */
  readonly transferCount: number;
  readonly transferTotal: KoboSum;
  readonly cardCount: number;
  readonly cardTotal: KoboSum;
  /** Lagos days of the month with at least one completed sale. */
  readonly daysWithSales: number;
}

/** Completed sales' lines at one VAT rate (docs/adr/0054): what they earned net of VAT, and their VAT. */
export interface VatRateSums {
  readonly rate: number;
  readonly net: KoboSum;
  readonly vat: KoboSum;
}

/** A range's VAT: output VAT on completed sales by rate, and input VAT on live expenses. */
export interface VatSums {
  /** By rate, highest first; only sales that carry VAT (made while VAT-registered). */
  readonly sales: readonly VatRateSums[];
  readonly salesCount: number;
  /** The range's returns of such sales, by the returned line's rate: what came back net of VAT, and its VAT (both to take off). */
  readonly returns: readonly VatRateSums[];
  readonly returnsCount: number;
  /** Invoices that count (docs/adr/0074) issued in the range that carried VAT, by their lines' rate: net of VAT and its VAT. */
  readonly invoices: readonly VatRateSums[];
  readonly invoicesCount: number;
  /** Live expenses of the range that recorded input VAT: how many, their amounts, and that VAT. */
  readonly expensesCount: number;
  readonly expensesAmount: KoboSum;
  readonly inputVat: KoboSum;
}

/**
 * Invoices of a range (docs/adr/0074), as of `today` (a Lagos day): `invoiced` the totals (VAT included) of the
 * invoices issued in the range that count (sent, not proforma, not cancelled); `collected` the payments on
 * invoices paid in the range; `outstanding` what is still owed on the range's invoices; `overdue` the part of
 * it on invoices whose due date is before `today`.
 */
export interface ReceivableSums {
  readonly invoiced: KoboSum;
  readonly collected: KoboSum;
  readonly outstanding: KoboSum;
  readonly overdue: KoboSum;
}
/** Read-only report figures of one business, each computed where the rows are. */
export interface ReportQueries {
  /** The sums of each range, in one pass over the two (the dashboard's period and the one before). */
  periodSums(businessId: string, current: DayRange, previous: DayRange): Promise<{ current: PeriodSums; previous: PeriodSums }>;
  receivables(businessId: string, range: DayRange, today: string): Promise<ReceivableSums>;
  /** What customers owe now. */
  creditOutstanding(businessId: string): Promise<Kobo>;
  /** Products (or services) by revenue in the range, best first, ties by name. */
  topProducts(businessId: string, range: DayRange, type: ProductType | undefined, limit: number): Promise<ProductSales[]>;
  /** Per Lagos month of the range (every month, empty ones too, oldest first), then the whole range (`month` null). */
  profitLoss(businessId: string, range: DayRange): Promise<ProfitLossSums[]>;
  stockValue(businessId: string): Promise<StockValue[]>;
  stockAlerts(businessId: string, limit: number): Promise<StockAlerts>;
  daySums(businessId: string, day: string): Promise<DaySums>;
  salesByCategory(businessId: string, range: DayRange): Promise<CategorySales[]>;
  /** Per Lagos month of the range (every month, empty ones too, oldest first): sales, voids, TRANSFER and CARD sales, days with sales. */
  monthActivity(businessId: string, range: DayRange): Promise<MonthActivity[]>;
  /** Output VAT of the range's completed sales (by their Lagos day) and sent invoices (by issue date), and input VAT of its live expenses (by spent_on). */
  vatSums(businessId: string, range: DayRange): Promise<VatSums>;
}

/**
 * Completed sales summed by day for days that are over, which the SQL reports read instead of each sale
 * (docs/adr/0086). The in-memory reports sum their rows each time and keep none: there, no business has
 * days to roll up. Across every business (the periodic task's, never a request's).
 */
export interface ReportDayTotals {
  /** Businesses, in id order after `after`, with a day that is over and not rolled up, or rolled up and since changed. */
  businessesToRollUp(limit: number, after?: string): Promise<string[]>;
  /** Rolls up at most `maxDays` such days of the business, changed ones first; answers how many. Needs a transaction. */
  rollUp(businessId: string, maxDays: number): Promise<number>;
}

/** The reports module's repositories, as a unit of work hands them to a use case. */
export interface ReportRepositories {
  readonly reports: ReportQueries;
  readonly reportDayTotals: ReportDayTotals;
}
