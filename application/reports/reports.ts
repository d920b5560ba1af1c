import * as E from 'fp-ts/lib/Either.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { sumKobo, type Kobo, type KoboSum } from '../../domain/money.js';
import { checkFeature, type FeatureNotAvailable } from '../../domain/plan.js';
import {
  averageOf, changePct, checkRange, dashboardRange, isInvalidRange, percentOf, previousRange,
  type DashboardPeriod, type DayRange, type InvalidReportRange,
} from '../../domain/report.js';
import type { Actor } from '../../domain/roles.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { CategoryAmount, CategorySales, DaySums, MethodSum, PeriodSums, ProductSales, ReceivableSums, ReportRepositories, StockAlerts, StockValue, VatRateSums } from './ports.js';
import { isVatMonth, monthDays, vatFilingDueDate } from '../../domain/vat.js';

type Deps = { uow: UnitOfWork<Pick<ReportRepositories, 'reports'>>; clock: Clock };

/** How many products the dashboard names, services the top-services report lists, and alert rows the inventory lists. */
export const TOP_PRODUCTS = 5;
export const TOP_SERVICES = 10;
export const STOCK_ALERT_ROWS = 50;

/** A figure of the period beside the same figure of the same-length period before (money: an exact KoboSum). */
export interface Compared<T extends number | KoboSum = number> {
  readonly value: T;
  readonly previous: T;
  readonly changePct: number | null;
}
const compared = <T extends number | KoboSum>(value: T, previous: T): Compared<T> => ({ value, previous, changePct: changePct(value, previous) });

export interface DashboardQuery {
  readonly period: DashboardPeriod;
  readonly startDate?: string;
  readonly endDate?: string;
}

export interface Dashboard {
  readonly range: DayRange;
  readonly previousRange: DayRange;
  /** Net of the period's returns. */
  readonly revenue: Compared<KoboSum>;
  /** What the period's returned goods were sold for (already taken off revenue). */
  readonly returns: Compared<KoboSum>;
  readonly salesCount: Compared;
  readonly averageSale: Compared<KoboSum>;
  readonly grossProfit: Compared<KoboSum>;
  readonly expenses: Compared<KoboSum>;
  readonly netProfit: Compared<KoboSum>;
  readonly creditGiven: Compared<KoboSum>;
  readonly creditCollected: Compared<KoboSum>;
  readonly creditOutstanding: Kobo;
  /** The period's invoices (docs/adr/0074): see ReceivableSums. */
  readonly receivables: ReceivableSums;
  readonly lowStockCount: number;
  readonly outOfStockCount: number;
  readonly topProducts: ProductSales[];
}

const gross = (s: PeriodSums) => s.revenue - s.costOfGoods;
const net = (s: PeriodSums) => gross(s) - s.expenses;

/** The owner's dashboard: the period's takings, profit, expenses and credit against the period before, stock alerts, best sellers. */
export const getDashboard =
  (deps: Deps) =>
  async (actor: Actor, q: DashboardQuery): Promise<E.Either<InvalidReportRange, Dashboard>> => {
    const range = dashboardRange(q.period, deps.clock.now(), { start: q.startDate, end: q.endDate });
    if (isInvalidRange(range)) return E.left(range);
    const before = previousRange(range);
    // Four reads side by side (each its own statement and snapshot, as reads are): on PostgreSQL the
    // dashboard takes as long as its slowest one, the best sellers, not the sum of the four.
    const [{ current: c, previous: p }, alerts, creditOutstanding, topProducts, receivables] = await Promise.all([
      deps.uow.read((r) => r.reports.periodSums(actor.businessId, range, before)),
      deps.uow.read((r) => r.reports.stockAlerts(actor.businessId, 0)),
      deps.uow.read((r) => r.reports.creditOutstanding(actor.businessId)),
      deps.uow.read((r) => r.reports.topProducts(actor.businessId, range, undefined, TOP_PRODUCTS)),
      deps.uow.read((r) => r.reports.receivables(actor.businessId, range, lagosDate(deps.clock.now()))),
    ]);
    return E.right({
      range,
      previousRange: before,
      revenue: compared(c.revenue, p.revenue),
      returns: compared(c.returns, p.returns),
      salesCount: compared(c.salesCount, p.salesCount),
      // an average till sale: invoice revenue is left out of it (docs/adr/0074)
      averageSale: compared(BigInt(averageOf(c.revenue - c.invoiceRevenue, c.salesCount)), BigInt(averageOf(p.revenue - p.invoiceRevenue, p.salesCount))),
      grossProfit: compared(gross(c), gross(p)),
      expenses: compared(c.expenses, p.expenses),
      netProfit: compared(net(c), net(p)),
      creditGiven: compared(c.creditGiven, p.creditGiven),
      creditCollected: compared(c.creditCollected, p.creditCollected),
      creditOutstanding,
      receivables,
      lowStockCount: alerts.lowStockCount,
      outOfStockCount: alerts.outOfStockCount,
      topProducts,
    });
  };

/** Services (products of type SERVICE) by revenue in the dashboard's period: Business and Pro plans only. */
export const getTopServices =
  (deps: { uow: UnitOfWork<Pick<ReportRepositories, 'reports'> & Pick<BusinessRepositories, 'businesses'>>; clock: Clock }) =>
  (actor: Actor, q: DashboardQuery): Promise<E.Either<InvalidReportRange | FeatureNotAvailable, { range: DayRange; services: ProductSales[] }>> =>
    deps.uow.read(async (r) => {
      const business = await r.businesses.findById(actor.businessId);
      const gate = checkFeature(business!.plan, 'TOP_SERVICES');
      if (gate) return E.left(gate);
      const range = dashboardRange(q.period, deps.clock.now(), { start: q.startDate, end: q.endDate });
      if (isInvalidRange(range)) return E.left(range);
      return E.right({ range, services: await r.reports.topProducts(actor.businessId, range, 'SERVICE', TOP_SERVICES) });
    });

export interface ProfitLossLine {
  readonly month: string | null;
  /** Net of the returns (`returns`: what their goods were sold for). */
  readonly revenue: KoboSum;
  readonly returns: KoboSum;
  readonly discounts: KoboSum;
  readonly costOfGoods: KoboSum;
  readonly grossProfit: KoboSum;
  readonly grossMarginPct: number | null;
  readonly expenses: readonly CategoryAmount[];
  readonly totalExpenses: KoboSum;
  readonly netProfit: KoboSum;
}

/** Profit and loss over a range of Lagos days: in total and per Lagos month. */
export const getProfitLoss =
  (deps: Deps) =>
  (actor: Actor, from: string, to: string): Promise<E.Either<InvalidReportRange, { range: DayRange; total: ProfitLossLine; months: ProfitLossLine[] }>> =>
    deps.uow.read(async (r) => {
      const range = checkRange(from, to);
      if (isInvalidRange(range)) return E.left(range);
      const lines = (await r.reports.profitLoss(actor.businessId, range)).map((s): ProfitLossLine => {
        const grossProfit = s.revenue - s.costOfGoods;
        return { ...s, grossProfit, grossMarginPct: percentOf(grossProfit, s.revenue), netProfit: grossProfit - s.totalExpenses };
      });
      return E.right({ range, total: lines.find((l) => l.month === null)!, months: lines.filter((l) => l.month !== null) });
    });

export interface InventoryReport {
  readonly categories: StockValue[];
  readonly total: Omit<StockValue, 'category'>;
  readonly alerts: StockAlerts;
}

/** The stock on hand valued at cost and at selling price, per category and in total, with low and out-of-stock goods. */
export const getInventory =
  (deps: Deps) =>
  (actor: Actor): Promise<InventoryReport> =>
    deps.uow.read(async (r) => {
      const categories = await r.reports.stockValue(actor.businessId);
      const sum = (f: (s: StockValue) => number) => categories.reduce((n, s) => n + f(s), 0);
      return {
        categories,
        total: { products: sum((s) => s.products), units: sum((s) => s.units), atCost: sumKobo(categories.map((s) => s.atCost)), atPrice: sumKobo(categories.map((s) => s.atPrice)) },
        alerts: await r.reports.stockAlerts(actor.businessId, STOCK_ALERT_ROWS),
      };
    });

export interface DailySummary extends DaySums {
  readonly date: string;
  readonly salesTotal: { readonly count: number; readonly total: KoboSum };
  /** The day's sales less what the day's returns were sold for (docs/adr/0058). */
  readonly netSalesTotal: KoboSum;
  /** What the day's returns handed back, every refund method (a CREDIT_NOTE moved no money but is counted here). */
  readonly refundsTotal: KoboSum;
  readonly expensesTotal: KoboSum;
  readonly creditCollectedTotal: KoboSum;
  readonly invoicePaymentsTotal: KoboSum;
  /** CASH tenders of the day's sales + cash credit payments + cash invoice payments - cash expenses - cash refunds (money: VAT included). */
  readonly cashExpected: KoboSum;
}

const totalOf = <M extends string>(rows: readonly MethodSum<M>[]) => sumKobo(rows.map((x) => x.total));
const cashOf = <M extends string>(rows: readonly MethodSum<M>[]) => rows.find((x) => x.method === 'CASH')?.total ?? 0n;

/** The day's figures of a business (the daily-summary report, and the daily summary message). */
export const dailySummaryOf = async (reports: ReportRepositories['reports'], businessId: string, day: string): Promise<DailySummary> => {
  const s = await reports.daySums(businessId, day);
  return {
    ...s,
    date: day,
    // the tenders add up to the sales' totals; a split sale has several, so the count is the sales'
    salesTotal: { count: s.salesCount, total: totalOf(s.sales) },
    netSalesTotal: totalOf(s.sales) - s.returns.total,
    refundsTotal: totalOf(s.refunds),
    expensesTotal: totalOf(s.expenses),
    creditCollectedTotal: totalOf(s.creditCollected),
    invoicePaymentsTotal: totalOf(s.invoicePayments),
    // a cash refund is money out of the till (docs/adr/0058); cash paid on an invoice is in it (0074)
    cashExpected: s.cashSalesReceived + cashOf(s.creditCollected) + cashOf(s.invoicePayments) - cashOf(s.expenses) - cashOf(s.refunds),
  };
};

/** One Lagos day at the till (default today): sales, voids, returns and refunds, discounts, expenses, credit, and the cash the drawer should hold. */
export const getDailySummary =
  (deps: Deps) =>
  (actor: Actor, date: string | undefined): Promise<DailySummary> =>
    deps.uow.read((r) => dailySummaryOf(r.reports, actor.businessId, date ?? lagosDate(deps.clock.now())));

/** Sales per product category over a range: revenue (line totals), units, gross profit and share of revenue. */
export const getSalesByCategory =
  (deps: Deps) =>
  (actor: Actor, from: string, to: string): Promise<E.Either<InvalidReportRange, { range: DayRange; categories: CategorySales[]; lineTotal: KoboSum; saleDiscounts: KoboSum; revenue: KoboSum }>> =>
    deps.uow.read(async (r) => {
      const range = checkRange(from, to);
      if (isInvalidRange(range)) return E.left(range);
      const categories = await r.reports.salesByCategory(actor.businessId, range);
      const { current } = await r.reports.periodSums(actor.businessId, range, range);
      const lineTotal = sumKobo(categories.map((c) => c.revenue));
      // till sales only: an invoice's revenue is in the dashboard and P&L, not split by category (docs/adr/0074)
      const salesRevenue = current.revenue - current.invoiceRevenue;
      return E.right({ range, categories, lineTotal, saleDiscounts: lineTotal - salesRevenue, revenue: salesRevenue });
    });

/** A month's VAT return (docs/adr/0054): output VAT on sales by rate, input VAT on expenses, what is payable and when. */
export interface VatReport {
  readonly month: string;
  readonly range: DayRange;
  /** The 21st of the month after: the FIRS filing (and payment) deadline. */
  readonly dueDate: string;
  readonly vatRegistered: boolean;
  readonly tin: string | null;
  /** Completed sales that carried VAT, by rate (highest first): net of VAT and their VAT. */
  readonly sales: readonly VatRateSums[];
  readonly salesCount: number;
  readonly salesNet: KoboSum;
  readonly salesVat: KoboSum;
  /** The month's returns of such sales, by the returned line's rate: net of VAT and the VAT given back. */
  readonly returns: readonly VatRateSums[];
  readonly returnsCount: number;
  readonly returnsNet: KoboSum;
  readonly returnsVat: KoboSum;
  /** Invoices that count (docs/adr/0074) issued in the month that carried VAT, by rate: net of VAT and their VAT. */
  readonly invoices: readonly VatRateSums[];
  readonly invoicesCount: number;
  readonly invoicesNet: KoboSum;
  readonly invoicesVat: KoboSum;
  /** The sales' and invoices' VAT less the returns': what the month owes on what it sold. */
  readonly outputVat: KoboSum;
  readonly expensesCount: number;
  readonly expensesAmount: KoboSum;
  readonly inputVat: KoboSum;
  /** Output VAT - input VAT: to pay FIRS by the due date; below 0, a credit carried forward. */
  readonly netVatPayable: KoboSum;
}

/** The VAT return of a Lagos month `YYYY-MM` (default the current one; owner): sales of the month by their Lagos day, expenses by spent_on. */
export const getVatReport =
  (deps: { uow: UnitOfWork<Pick<ReportRepositories, 'reports'> & Pick<BusinessRepositories, 'businesses'>>; clock: Clock }) =>
  (actor: Actor, month: string = lagosDate(deps.clock.now()).slice(0, 7)): Promise<E.Either<InvalidReportRange, VatReport>> =>
    deps.uow.read(async (r) => {
      if (!isVatMonth(month)) return E.left({ _tag: 'InvalidReportRange', field: 'month', reason: 'must be a month, YYYY-MM' });
      const range = monthDays(month);
      const business = await r.businesses.findById(actor.businessId);
      const v = await r.reports.vatSums(actor.businessId, range);
      const salesVat = sumKobo(v.sales.map((s) => s.vat));
      const returnsVat = sumKobo(v.returns.map((s) => s.vat));
      const invoicesVat = sumKobo(v.invoices.map((s) => s.vat));
      const outputVat = salesVat + invoicesVat - returnsVat;
      return E.right({
        month,
        range,
        dueDate: vatFilingDueDate(month),
        vatRegistered: business?.vatRegistered ?? false,
        tin: business?.tin ?? null,
        sales: v.sales,
        salesCount: v.salesCount,
        salesNet: sumKobo(v.sales.map((s) => s.net)),
        salesVat,
        returns: v.returns,
        returnsCount: v.returnsCount,
        returnsNet: sumKobo(v.returns.map((s) => s.net)),
        returnsVat,
        invoices: v.invoices,
        invoicesCount: v.invoicesCount,
        invoicesNet: sumKobo(v.invoices.map((s) => s.net)),
        invoicesVat,
        outputVat,
        expensesCount: v.expensesCount,
        expensesAmount: v.expensesAmount,
        inputVat: v.inputVat,
        netVatPayable: outputVat - v.inputVat,
      });
    });
