import type { CreditPaymentMethod } from '../../domain/credit.js';
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
  /** Sum of the totals of completed sales (after every discount), less what the range's returns were sold for. */
  readonly revenue: KoboSum;
  /** What the goods returned in the range were sold for, and how many returns. */
  readonly returns: KoboSum;
  readonly returnsCount: number;
  readonly salesCount: number;
  /** Line discounts plus sale discounts of completed sales. */
  readonly discounts: KoboSum;
  /** Sum of quantity x stored cost price over the lines of completed sales, less the cost of the range's restocked returns. */
  readonly costOfGoods: KoboSum;
  /** What completed sales left unpaid at the till (total - amount paid). */
  readonly creditGiven: KoboSum;
  /** Credit payments received. */
  readonly creditCollected: KoboSum;
  readonly expenses: KoboSum;
}

/** A product's (or service's) sales in a range: units and line totals of completed sales, less the range's returns of it. */
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
  readonly sales: readonly MethodSum<PaymentMethod>[];
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
  /** What the till received in cash for CASH sales (their amount paid). */
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
  /** Completed sales: how many, and their totals less what the month's returns were sold for. */
  readonly salesCount: number;
  readonly salesTotal: KoboSum;
  /** Sales made in the month and voided since. */
  readonly voidedCount: number;
  /** Completed sales paid by TRANSFER and by CARD: how many and their totals (less the month's returns of such sales). */
  readonly transferCount: number;
  readonly transferTotal: KoboSum;
  readonly cardCount: number;
  readonly cardTotal: KoboSum;
  /** Lagos days of the month with at least one completed sale. */
  readonly daysWithSales: number;
}

/** Read-only report figures of one business, each computed where the rows are. */
export interface ReportQueries {
  /** The sums of each range, in one pass over the two (the dashboard's period and the one before). */
  periodSums(businessId: string, current: DayRange, previous: DayRange): Promise<{ current: PeriodSums; previous: PeriodSums }>;
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
}

/** The reports module's repositories, as a unit of work hands them to a use case. */
export interface ReportRepositories {
  readonly reports: ReportQueries;
}
