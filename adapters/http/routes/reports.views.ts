import * as t from 'io-ts';
import type { CategorySales, MethodSum, ProductSales, StockAlertItem, StockValue } from '../../../application/reports/ports.js';
import type { Compared, DailySummary, InventoryReport, ProfitLossLine, VatReport } from '../../../application/reports/reports.js';
import { basisPointsToPercent, isVatMonth } from '../../../domain/vat.js';
import type { KoboSum } from '../../../domain/money.js';
import type { DayRange } from '../../../domain/report.js';
import { dateTime, doc, Documented, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { nairaSchema, nairaSumJson, NAIRA_SUM } from '../json-values.js';
import { lagosDayInput } from '../dates.js';

// The JSON views of the reports and the named shapes the OpenAPI document gives them. Money is naira
// with 2 decimals; percentages are numbers with 2 decimals, null where the base is 0.

const naira = doc('naira', nairaSchema({ description: NAIRA_SUM }));
const pct = doc('per cent or null', { type: ['number', 'null'], description: 'per cent, 2 decimals; null when the base is 0' });
const lagosDay = doc('Lagos day', { type: 'string', format: 'date' });
const arrayOf = (name: string, item: t.Mixed) => doc(name, { type: 'array', items: jsonSchemaOf(item) });
const naira_ = (k: KoboSum) => nairaSumJson(k);

/** A report's answer: `data_as_of` only when it was read from a replica (REPORTS_DATABASE_URL, docs/adr/0035). */
const reportShape = (name: string, props: Record<string, t.Mixed>, descriptions: Record<string, string> = {}) =>
  shape(name, props, {
    ...descriptions,
    data_as_of: 'only when read from a replica: the commit time of the last transaction it had replayed; what was written after it may be missing',
  }, { data_as_of: dateTime });

/**
 * A Lagos calendar day in the query string: YYYY-MM-DD, a real date in the years 1900 to 9999 (so a
 * range and the same-length range before it stay within what PostgreSQL and ISO 8601 both hold).
 */
export const lagosDayParam = (description: string) => lagosDayInput(description, 1900);

/** A Lagos month in the query string: YYYY-MM, month 01 to 12 (the VAT return's, docs/adr/0054). */
export const vatMonthParam = (description: string) =>
  new Documented<string>('month', { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', minLength: 7, maxLength: 7, description, examples: ['2026-11'] }, (u, c) =>
    typeof u === 'string' && isVatMonth(u) ? t.success(u) : t.failure(u, c, 'must be a month, YYYY-MM (01 to 12)'),
  );

const comparedAmount = shape('ComparedAmount', { value: naira, previous: naira, change_pct: pct }, {
  value: 'in the period', previous: 'in the same number of days just before it', change_pct: '(value - previous) / previous in per cent; null when previous is 0',
});
const comparedCount = shape('ComparedCount', { value: int, previous: int, change_pct: pct });
export const comparedJson = (c: Compared) => ({ value: c.value, previous: c.previous, change_pct: c.changePct });
export const comparedAmountJson = (c: Compared<KoboSum>) => ({ value: naira_(c.value), previous: naira_(c.previous), change_pct: c.changePct });

const productSalesShape = shape('ProductSales', { id: uuid, name: str, units: int, revenue: naira }, {
  units: "units sold less the period's returns of it",
  revenue: "line totals of completed sales (after line discounts), less the period's returns of it",
});
export const productSalesJson = (p: ProductSales) => ({ id: p.productId, name: p.name, units: p.units, revenue: naira_(p.revenue) });

const rangeShape = { start_date: lagosDay, end_date: lagosDay };
export const rangeJson = (r: DayRange) => ({ start_date: r.from, end_date: r.to });

export const dashboardShape = reportShape('Dashboard', {
  period: str,
  ...rangeShape,
  previous_start_date: lagosDay,
  previous_end_date: lagosDay,
  revenue: comparedAmount,
  returns: comparedAmount,
  sales_count: comparedCount,
  average_sale: comparedAmount,
  gross_profit: comparedAmount,
  expenses: comparedAmount,
  net_profit: comparedAmount,
  credit_given: comparedAmount,
  credit_collected: comparedAmount,
  credit_outstanding: naira,
  receivables: shape('Receivables', { invoiced: naira, collected: naira, outstanding: naira, overdue: naira }, {
    invoiced: 'the totals (VAT included) of the invoices and tax invoices issued in the period (Lagos issue date) and sent; proformas, drafts and cancelled ones count 0',
    collected: 'payments on invoices made in the period (their paid_at, Lagos days), whichever day their invoices were issued',
    outstanding: 'what is still owed now on the invoices counted in invoiced (total - amount paid)',
    overdue: 'the part of outstanding on invoices whose due date is before today (Lagos)',
  }),
  low_stock_count: int,
  out_of_stock_count: int,
  top_products: arrayOf('top products', productSalesShape),
}, {
  credit_outstanding: 'what customers owe now (a credit note a customer holds counts 0)',
  receivables: 'customer invoices of the period (docs/adr/0074)',
  top_products: 'the 5 products with the most revenue in the period',
});

export const topServicesShape = reportShape('TopServices', { period: str, ...rangeShape, services: arrayOf('services', productSalesShape) });

const categoryAmountShape = shape('ExpenseCategoryAmount', { category_id: uuid, category: str, amount: naira });
const profitLossFields = {
  revenue: naira,
  returns: naira,
  discounts: naira,
  cost_of_goods_sold: naira,
  gross_profit: naira,
  gross_margin_pct: pct,
  expenses_by_category: arrayOf('expenses by category', categoryAmountShape),
  total_expenses: naira,
  net_profit: naira,
};
const profitLossMonthShape = shape('ProfitLossMonth', { month: doc('month', { type: 'string', pattern: '^\\d{4}-\\d{2}$' }), ...profitLossFields });
export const profitLossShape = reportShape('ProfitLoss', { ...rangeShape, ...profitLossFields, months: arrayOf('months', profitLossMonthShape) }, {
  revenue: 'completed sales and sent invoices (by issue date; not proformas, not cancelled: docs/adr/0074), net of VAT, less the returns made in the month or range (net of returns, docs/adr/0058)',
  returns: 'what the goods returned were sold for, by the day they came back (already taken off revenue)',
  discounts: 'line and sale discounts given (already taken off revenue), as the sales gave them',
  cost_of_goods_sold: "the lines' stored cost (an invoice line's unit cost fixed at send), less the cost of restocked returns (goods returned damaged keep their cost here)",
  months: 'each Lagos month of the range, oldest first (months without activity too)',
});
const profitLossFieldsJson = (l: ProfitLossLine) => ({
  revenue: naira_(l.revenue),
  returns: naira_(l.returns),
  discounts: naira_(l.discounts),
  cost_of_goods_sold: naira_(l.costOfGoods),
  gross_profit: naira_(l.grossProfit),
  gross_margin_pct: l.grossMarginPct,
  expenses_by_category: l.expenses.map((e) => ({ category_id: e.categoryId, category: e.category, amount: naira_(e.amount) })),
  total_expenses: naira_(l.totalExpenses),
  net_profit: naira_(l.netProfit),
});
export const profitLossJson = (p: { range: DayRange; total: ProfitLossLine; months: ProfitLossLine[] }) => ({
  ...rangeJson(p.range),
  ...profitLossFieldsJson(p.total),
  months: p.months.map((m) => ({ month: m.month, ...profitLossFieldsJson(m) })),
});

const stockFields = { products: int, units: int, stock_value_at_cost: naira, stock_value_at_price: naira };
const stockCategoryShape = shape('StockCategoryValue', { category: nullableStr, ...stockFields }, { category: 'null: products without a category' });
const alertItemShape = shape('StockAlertItem', { id: uuid, name: str, sku: str, category: nullableStr, quantity: int, low_stock_threshold: doc('integer or null', { type: ['integer', 'null'] }) });
const alertListShape = shape('StockAlertList', { count: int, items: arrayOf('items', alertItemShape) }, { count: 'all of them', items: 'the first 50, fewest units first' });
export const inventoryShape = reportShape('InventoryReport', {
  categories: arrayOf('categories', stockCategoryShape),
  total: shape('StockTotal', stockFields),
  low_stock: alertListShape,
  out_of_stock: alertListShape,
});
const stockJson = (s: Omit<StockValue, 'category'>) => ({ products: s.products, units: s.units, stock_value_at_cost: naira_(s.atCost), stock_value_at_price: naira_(s.atPrice) });
const alertJson = (a: StockAlertItem) => ({ id: a.productId, name: a.name, sku: a.sku, category: a.category, quantity: a.quantity, low_stock_threshold: a.lowStockThreshold });
export const inventoryJson = (r: InventoryReport) => ({
  categories: r.categories.map((c) => ({ category: c.category, ...stockJson(c) })),
  total: stockJson(r.total),
  low_stock: { count: r.alerts.lowStockCount, items: r.alerts.lowStock.map(alertJson) },
  out_of_stock: { count: r.alerts.outOfStockCount, items: r.alerts.outOfStock.map(alertJson) },
});

const methodSumShape = shape('PaymentMethodSum', { method: str, count: int, total: naira }, {
  count: 'sales: the completed sales with a tender of this method; expenses and credit payments: how many',
  total: 'sales: their tenders of this method (docs/adr/0055); expenses and credit payments: their amounts',
});
const methodList = arrayOf('by payment method', methodSumShape);
const methodJson = (m: MethodSum<string>) => ({ method: m.method, count: m.count, total: naira_(m.total) });
export const dailySummaryShape = reportShape('DailySummary', {
  date: lagosDay,
  sales: shape('DailySales', { count: int, total: naira, by_payment_method: methodList }, {
    total: 'what the sales charged (VAT included): their tenders added up',
    by_payment_method: 'by tender: a split sale counts under each of its methods, CREDIT is what was left owed (docs/adr/0055)',
  }),
  voids: shape('DailyVoids', { count: int, total: naira }),
  returns: shape('DailyReturns', { count: int, total: naira, refunded: naira, by_refund_method: methodList }, {
    total: 'what the goods returned that day were sold for',
    refunded: 'what was handed back (refund_amount), every refund method; CREDIT_NOTE moved no money',
  }),
  net_sales: naira,
  discounts: naira,
  expenses: shape('DailyExpenses', { total: naira, by_payment_method: methodList }),
  credit_given: naira,
  credit_collected: shape('DailyCreditCollected', { total: naira, by_payment_method: methodList }),
  invoice_payments: shape('DailyInvoicePayments', { total: naira, by_payment_method: methodList }, {
    by_payment_method: 'payments on invoices made that Lagos day (paid_at), by method: CASH, TRANSFER, CARD, POS, ONLINE',
  }),
  cash_expected: naira,
  revenue: naira,
  vat_total: naira,
}, {
  revenue: "the day's sales net of VAT (docs/adr/0054): sales.total - vat_total; equal to sales.total for a business that is not VAT-registered",
  vat_total: "the VAT of the day's sales (0.00 when not VAT-registered)",
  sales: 'completed sales made that Lagos day',
  voids: 'sales made that day and voided since',
  returns: 'returns made that day, whichever day their sales were made (docs/adr/0058)',
  net_sales: 'sales.total - returns.total',
  cash_expected: "the sales' CASH tenders + CASH credit payments + CASH invoice payments - CASH expenses - CASH refunds (money in the drawer, VAT included)",
});
export const dailySummaryJson = (d: DailySummary) => ({
  date: d.date,
  sales: { count: d.salesTotal.count, total: naira_(d.salesTotal.total), by_payment_method: d.sales.map(methodJson) },
  voids: { count: d.voids.count, total: naira_(d.voids.total) },
  returns: { count: d.returns.count, total: naira_(d.returns.total), refunded: naira_(d.refundsTotal), by_refund_method: d.refunds.map(methodJson) },
  net_sales: naira_(d.netSalesTotal),
  discounts: naira_(d.discounts),
  expenses: { total: naira_(d.expensesTotal), by_payment_method: d.expenses.map(methodJson) },
  credit_given: naira_(d.creditGiven),
  credit_collected: { total: naira_(d.creditCollectedTotal), by_payment_method: d.creditCollected.map(methodJson) },
  invoice_payments: { total: naira_(d.invoicePaymentsTotal), by_payment_method: d.invoicePayments.map(methodJson) },
  cash_expected: naira_(d.cashExpected),
  revenue: naira_(d.revenue),
  vat_total: naira_(d.vat),
});

const categorySalesShape = shape('CategorySales', { category: nullableStr, revenue: naira, units: int, cost_of_goods_sold: naira, gross_profit: naira, share_pct: pct });
export const salesByCategoryShape = reportShape('SalesByCategory', {
  ...rangeShape,
  categories: arrayOf('categories', categorySalesShape),
  line_total: naira,
  sale_discounts: naira,
  revenue: naira,
}, {
  categories: "by revenue (line totals after line discounts, less the range's returns), largest first; category null: products without one",
  sale_discounts: 'discounts given on whole sales, not split over categories',
  revenue: 'line_total - sale_discounts: the revenue of till sales (the other reports add sent invoices, which are not split by category; docs/adr/0074)',
});
export const salesByCategoryJson = (r: { range: DayRange; categories: CategorySales[]; lineTotal: KoboSum; saleDiscounts: KoboSum; revenue: KoboSum }) => ({
  ...rangeJson(r.range),
  categories: r.categories.map((c) => ({
    category: c.category, revenue: naira_(c.revenue), units: c.units, cost_of_goods_sold: naira_(c.costOfGoods), gross_profit: naira_(c.grossProfit), share_pct: c.sharePct,
  })),
  line_total: naira_(r.lineTotal),
  sale_discounts: naira_(r.saleDiscounts),
  revenue: naira_(r.revenue),
});

const vatRateShape = shape('VatRateSales', {
  rate: doc('VAT rate', { type: 'number', minimum: 0, maximum: 100, examples: [7.5] }),
  net: naira,
  vat: naira,
}, { rate: 'per cent (0: VAT-exempt products)', net: "what the month's completed sales earned at this rate, net of VAT", vat: 'their output VAT' });
export const vatReportShape = reportShape('VatReport', {
  month: doc('month', { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$', examples: ['2026-11'] }),
  start_date: lagosDay,
  end_date: lagosDay,
  due_date: lagosDay,
  vat_registered: doc('boolean', { type: 'boolean' }),
  tin: nullableStr,
  sales: shape('VatSales', { count: int, net: naira, output_vat: naira, by_rate: arrayOf('by rate', vatRateShape) }, {
    count: 'completed sales of the month that carried VAT',
    net: 'what they earned net of VAT',
    output_vat: 'the VAT they charged: the sum of their lines\' VAT',
  }),
  returns: shape('VatReturns', { count: int, net: naira, vat: naira, by_rate: arrayOf('by rate', vatRateShape) }, {
    count: 'returns made in the month of sales that carried VAT (docs/adr/0058)',
    net: 'what came back, net of VAT',
    vat: 'the VAT given back: each returned line\'s share of its VAT',
  }),
  invoices: shape('VatInvoices', { count: int, net: naira, output_vat: naira, by_rate: arrayOf('by rate', vatRateShape) }, {
    count: 'invoices and tax invoices issued in the month (Lagos issue date), sent, partly paid or paid, that carried VAT (docs/adr/0074)',
    net: 'their lines net of VAT',
    output_vat: "their VAT: the sum of their lines' VAT",
  }),
  output_vat: doc('naira', nairaSchema({ description: NAIRA_SUM })),
  expenses: shape('VatExpenses', { count: int, amount: naira, input_vat: naira }, {
    count: 'live expenses of the month (by spent_on) that recorded the VAT they paid (vat_amount)',
    amount: 'their amounts, VAT included',
    input_vat: 'the VAT they recorded',
  }),
  net_vat_payable: doc('naira', nairaSchema({ description: NAIRA_SUM })),
}, {
  due_date: 'the FIRS filing and payment deadline: the 21st of the month after',
  tin: "the business's Tax Identification Number",
  output_vat: "sales.output_vat + invoices.output_vat - returns.vat: the month's output VAT net of returns",
  net_vat_payable: 'output_vat - expenses.input_vat: to pay by due_date; below 0, a credit carried forward',
});
export const vatReportJson = (r: VatReport) => ({
  month: r.month,
  start_date: r.range.from,
  end_date: r.range.to,
  due_date: r.dueDate,
  vat_registered: r.vatRegistered,
  tin: r.tin,
  sales: {
    count: r.salesCount,
    net: naira_(r.salesNet),
    output_vat: naira_(r.salesVat),
    by_rate: r.sales.map((s) => ({ rate: basisPointsToPercent(s.rate), net: naira_(s.net), vat: naira_(s.vat) })),
  },
  returns: {
    count: r.returnsCount,
    net: naira_(r.returnsNet),
    vat: naira_(r.returnsVat),
    by_rate: r.returns.map((s) => ({ rate: basisPointsToPercent(s.rate), net: naira_(s.net), vat: naira_(s.vat) })),
  },
  invoices: {
    count: r.invoicesCount,
    net: naira_(r.invoicesNet),
    output_vat: naira_(r.invoicesVat),
    by_rate: r.invoices.map((s) => ({ rate: basisPointsToPercent(s.rate), net: naira_(s.net), vat: naira_(s.vat) })),
  },
  output_vat: naira_(r.outputVat),
  expenses: { count: r.expensesCount, amount: naira_(r.expensesAmount), input_vat: naira_(r.inputVat) },
  net_vat_payable: naira_(r.netVatPayable),
});
