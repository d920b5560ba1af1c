import type { getDailySummary, getDashboard, getInventory, getProfitLoss, getSalesByCategory, getTopServices, getVatReport } from '../../../application/reports/reports.js';
import { DASHBOARD_PERIODS, MAX_REPORT_DAYS, type DashboardPeriod } from '../../../domain/report.js';
import { enumOf, object } from '../codecs.js';
import { dateTimeJson, nairaJson, nairaSumJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { ok, OWNER_ONLY, route, type HandlerInput, type RouteDef } from '../route.js';
import {
  comparedAmountJson, comparedJson, dailySummaryJson, dailySummaryShape, dashboardShape, inventoryJson, inventoryShape, lagosDayParam, productSalesJson, profitLossJson,
  profitLossShape, rangeJson, salesByCategoryJson, salesByCategoryShape, topServicesShape, vatMonthParam, vatReportJson, vatReportShape,
} from './reports.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface ReportUseCases {
  readonly getDashboard: ReturnType<typeof getDashboard>;
  readonly getTopServices: ReturnType<typeof getTopServices>;
  readonly getProfitLoss: ReturnType<typeof getProfitLoss>;
  readonly getInventory: ReturnType<typeof getInventory>;
  readonly getDailySummary: ReturnType<typeof getDailySummary>;
  readonly getSalesByCategory: ReturnType<typeof getSalesByCategory>;
  readonly getVatReport: ReturnType<typeof getVatReport>;
  /** The replica's last replayed commit when reports read from one (REPORTS_DATABASE_URL), else null. */
  readonly dataAsOf: () => Promise<Date | null>;
}

const TAG = 'Reports';
const RANGE_RULES = `Days are Lagos calendar days, both ends inclusive; end_date before start_date, or a range over ${MAX_REPORT_DAYS} days, is 400 VALIDATION_FAILED.`;

const periodQuery = (name: string) =>
  object(name, {}, {
    period: enumOf<DashboardPeriod>('period', DASHBOARD_PERIODS, 'default today; 7d and 30d end today; month is the Lagos month to date; custom takes start_date and end_date'),
    start_date: lagosDayParam('with period=custom (and only then): the first Lagos day'),
    end_date: lagosDayParam('with period=custom (and only then): the last Lagos day'),
  });
const rangeQuery = (name: string) =>
  object(name, { start_date: lagosDayParam('the first Lagos day, inclusive'), end_date: lagosDayParam('the last Lagos day, inclusive') });

type PeriodQuery = { period?: DashboardPeriod; start_date?: string; end_date?: string };
const periodOf = (q: PeriodQuery) => ({ period: q.period ?? 'today', ...(q.start_date ? { startDate: q.start_date } : {}), ...(q.end_date ? { endDate: q.end_date } : {}) });

/** Adds `data_as_of` to a report answered from a replica, asked before the report's own reads (a lower bound). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of routes of different query types, as apiRoutes takes them
const withDataAsOf = (uc: ReportUseCases) => (r: RouteDef<any, any>): RouteDef<any, any> => ({
  ...r,
  handler: async (input: HandlerInput<unknown, unknown>) => {
    const asOf = await uc.dataAsOf();
    const reply = await r.handler(input);
    return asOf ? { ...reply, data: { ...(reply.data as object), data_as_of: dateTimeJson(asOf) } } : reply;
  },
});

/** The owner's reports: every figure summed by the database (docs/adr/0023-reports.md). */
export const reportRoutes = (uc: ReportUseCases): RouteDef<any, any>[] => reportRouteList(uc).map(withDataAsOf(uc)); // eslint-disable-line @typescript-eslint/no-explicit-any

const reportRouteList = (uc: ReportUseCases) => [
  route({
    method: 'get',
    path: '/reports/dashboard',
    operationId: 'getDashboard',
    tag: TAG,
    summary: 'Dashboard: takings, profit, expenses and credit against the period before (owner)',
    description:
      'Each money and count figure comes as {value, previous, change_pct}: previous is the same number of Lagos days just before the period, ' +
      'change_pct null when previous is 0. Revenue is net of voided sales, of discounts and of returns (counted on the day the goods came back; ' +
      'returns: what their goods were sold for, already taken off revenue); cost of goods uses the cost price stored on each sale line, less ' +
      'the cost of restocked returns (goods returned damaged keep their cost in it). Sent invoices and tax invoices count in revenue, discounts and cost of ' +
      'goods on their Lagos issue date (net of VAT, cost fixed at send; proformas never; a cancelled one drops out of its issue date: docs/adr/0074); ' +
      'sales_count and average_sale are till sales only. receivables: the period\'s invoices (invoiced, collected, outstanding, overdue as of today). ' +
      `credit_outstanding and the stock counts are as of now. ${RANGE_RULES}`,
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: periodQuery('DashboardQuery'),
    success: { status: 200, description: 'The dashboard', data: dashboardShape },
    failures: failuresOf<FailureOf<typeof uc.getDashboard>>({ InvalidReportRange: true }),
    errors: [],
    handler: async ({ actor, query }) => {
      const d = successOf(await uc.getDashboard(actor, periodOf(query)), 'report');
      return ok('Dashboard', {
        period: query.period ?? 'today',
        ...rangeJson(d.range),
        previous_start_date: d.previousRange.from,
        previous_end_date: d.previousRange.to,
        revenue: comparedAmountJson(d.revenue),
        returns: comparedAmountJson(d.returns),
        sales_count: comparedJson(d.salesCount),
        average_sale: comparedAmountJson(d.averageSale),
        gross_profit: comparedAmountJson(d.grossProfit),
        expenses: comparedAmountJson(d.expenses),
        net_profit: comparedAmountJson(d.netProfit),
        credit_given: comparedAmountJson(d.creditGiven),
        credit_collected: comparedAmountJson(d.creditCollected),
        credit_outstanding: nairaJson(d.creditOutstanding),
        receivables: { invoiced: nairaSumJson(d.receivables.invoiced), collected: nairaSumJson(d.receivables.collected), outstanding: nairaSumJson(d.receivables.outstanding), overdue: nairaSumJson(d.receivables.overdue) },
        low_stock_count: d.lowStockCount,
        out_of_stock_count: d.outOfStockCount,
        top_products: d.topProducts.map(productSalesJson),
      });
    },
  }),
  route({
    method: 'get',
    path: '/reports/dashboard/top-services',
    operationId: 'getTopServices',
    tag: TAG,
    summary: 'Services by revenue in the period (owner; Business and Pro plans)',
    description: `The 10 services (products of type SERVICE) with the most revenue in the dashboard's period. Other plans: 402 FEATURE_NOT_AVAILABLE. ${RANGE_RULES}`,
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: periodQuery('TopServicesQuery'),
    success: { status: 200, description: 'The services, most revenue first', data: topServicesShape },
    failures: failuresOf<FailureOf<typeof uc.getTopServices>>({ InvalidReportRange: true, FeatureNotAvailable: true }),
    errors: [],
    handler: async ({ actor, query }) => {
      const r = successOf(await uc.getTopServices(actor, periodOf(query)), 'report');
      return ok('Top services', { period: query.period ?? 'today', ...rangeJson(r.range), services: r.services.map(productSalesJson) });
    },
  }),
  route({
    method: 'get',
    path: '/reports/profit-loss',
    operationId: 'getProfitLoss',
    tag: TAG,
    summary: 'Profit and loss over a range, in total and per Lagos month (owner)',
    description:
      'revenue (completed sales, after discounts), discounts, cost_of_goods_sold (stored line cost prices), gross_profit and gross_margin_pct, ' +
      `expenses by category (deleted expenses left out), total_expenses and net_profit; the same for each Lagos month of the range. ${RANGE_RULES}`,
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: rangeQuery('ProfitLossQuery'),
    success: { status: 200, description: 'The profit and loss', data: profitLossShape },
    failures: failuresOf<FailureOf<typeof uc.getProfitLoss>>({ InvalidReportRange: true }),
    errors: [],
    handler: async ({ actor, query }) => ok('Profit and loss', profitLossJson(successOf(await uc.getProfitLoss(actor, query.start_date, query.end_date), 'report'))),
  }),
  route({
    method: 'get',
    path: '/reports/inventory',
    operationId: 'getInventoryReport',
    tag: TAG,
    summary: 'Stock value and stock alerts (owner)',
    description:
      'Stock on hand valued at cost price (a product without one counts 0) and at selling price, per category and in total; how many goods are low ' +
      '(quantity at or below their low-stock threshold) and out of stock (quantity 0), with the first 50 of each. Services and archived products are left out.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: object('InventoryReportQuery', {}, {}),
    success: { status: 200, description: 'The inventory report', data: inventoryShape },
    errors: [],
    handler: async ({ actor }) => ok('Inventory', inventoryJson(await uc.getInventory(actor))),
  }),
  route({
    method: 'get',
    path: '/reports/daily-summary',
    operationId: 'getDailySummary',
    tag: TAG,
    summary: 'One Lagos day at the till (owner)',
    description:
      'Sales by payment method (by tender: a split sale counts under each of its methods), voids (sales of the day voided since), discounts, ' +
      'expenses by payment method, credit given, credit collected by method, and cash_expected = the CASH tenders of the sales + CASH credit ' +
      'payments - CASH expenses. sales.revenue is the sales net of VAT (a VAT-registered business, docs/adr/0054). date defaults to today in Lagos.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: object('DailySummaryQuery', {}, { date: lagosDayParam('the Lagos day; default today') }),
    success: { status: 200, description: 'The day', data: dailySummaryShape },
    errors: [],
    handler: async ({ actor, query }) => ok('Daily summary', dailySummaryJson(await uc.getDailySummary(actor, query.date))),
  }),
  route({
    method: 'get',
    path: '/reports/sales-by-category',
    operationId: 'getSalesByCategory',
    tag: TAG,
    summary: 'Sales per product category over a range (owner)',
    description:
      "Per category (the product's category now): revenue as line totals after line discounts, units, cost of goods and gross profit, and share of the line totals. " +
      `Discounts on whole sales are not split over categories: they are given once, as sale_discounts. ${RANGE_RULES}`,
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: rangeQuery('SalesByCategoryQuery'),
    success: { status: 200, description: 'The categories, most revenue first', data: salesByCategoryShape },
    failures: failuresOf<FailureOf<typeof uc.getSalesByCategory>>({ InvalidReportRange: true }),
    errors: [],
    handler: async ({ actor, query }) =>
      ok('Sales by category', salesByCategoryJson(successOf(await uc.getSalesByCategory(actor, query.start_date, query.end_date), 'report'))),
  }),
  route({
    method: 'get',
    path: '/reports/vat',
    operationId: 'getVatReport',
    tag: TAG,
    summary: "A month's VAT return: output VAT, input VAT, what is payable and when (owner)",
    description:
      'For a Lagos month (YYYY-MM, default the current one): the completed sales that carried VAT (made while VAT-registered; voided ones left out), by rate: net of VAT ' +
      'and their output VAT; the live expenses of the month (by spent_on) that recorded input VAT (vat_amount); net_vat_payable = output - input ' +
      '(below 0, a credit carried forward); due_date, the 21st of the next month (FIRS). A business that is not registered sees its expenses\' ' +
      'input VAT only. Invoices and tax invoices issued in the month (Lagos issue date), sent, partly paid or paid (not proformas, not cancelled), ' +
      'join the output VAT under invoices, by rate (docs/adr/0074). As a file: GET /reports/vat/export (docs/adr/0054).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: object('VatReportQuery', {}, { month: vatMonthParam('the Lagos month, YYYY-MM (default: the current one)') }),
    success: { status: 200, description: 'The VAT return', data: vatReportShape },
    failures: failuresOf<FailureOf<typeof uc.getVatReport>>({ InvalidReportRange: true }),
    errors: [],
    handler: async ({ actor, query }) => ok('VAT report', vatReportJson(successOf(await uc.getVatReport(actor, query.month), 'report'))),
  }),
];
