import type { CategoryAmount, MethodSum, MonthActivity, PeriodSums, ProfitLossSums, ReportRepositories, StockAlertItem } from '../../../application/reports/ports.js';
import type { CreditPaymentMethod } from '../../../domain/credit.js';
import type { InvoicePaymentMethod } from '../../../domain/invoice.js';
import type { InvoiceTables, StoredInvoice } from './invoices.in-memory.js';
import { lagosDate, lagosDayEnd, lagosDayStart } from '../../../domain/lagos-time.js';
import { kobo, type KoboSum } from '../../../domain/money.js';
import type { Product } from '../../../domain/product.js';
import { percentOf, type DayRange } from '../../../domain/report.js';
import { costOfGoods, netOfVat, type PaymentMethod, type Sale, type SaleLine } from '../../../domain/sale.js';
import type { Expense } from '../../../domain/expense.js';
import type { BusinessTables } from './business.in-memory.js';
import type { CustomerTables } from './customers.in-memory.js';
import type { ExpenseTables } from './expenses.in-memory.js';
import type { InMemoryModule } from './in-memory-store.js';
import type { ProductTables } from './products.in-memory.js';
import { values } from './rows.js';
import { salesOf, type SaleTables } from './sales.in-memory.js';
import { returnsOf, type ReturnTables } from './returns.in-memory.js';
import type { RefundMethod } from '../../../domain/sale-return.js';

// The reports own no table: they read sales, returns, products, customers and the credit ledger, expenses and the businesses (VAT).
type Tables = SaleTables & ReturnTables & ProductTables & CustomerTables & ExpenseTables & Pick<BusinessTables, 'businesses'> & Pick<InvoiceTables, 'invoices' | 'invoicePayments'>;

const sum = <T>(rows: readonly T[], f: (x: T) => number) => rows.reduce((n, x) => n + f(x), 0);
/** An exact sum of kobo (bigint), as PostgreSQL's numeric sum gives it. */
const total = <T>(rows: readonly T[], f: (x: T) => number | bigint): KoboSum => rows.reduce((n, x) => n + BigInt(f(x)), 0n);
const inRange = (at: Date, r: DayRange) => at >= lagosDayStart(r.from) && at < lagosDayEnd(r.to);
const completed = (t: Tables, businessId: string, r: DayRange) => salesOf(t, businessId).filter((s) => s.status === 'COMPLETED' && inRange(s.createdAt, r));
const costOf = (s: Sale) => costOfGoods(s.lines);
/** The returns made in the range (they count on the day the goods came back, docs/adr/0058). */
const returnsIn = (t: Tables, businessId: string, r: DayRange) => returnsOf(t, businessId).filter((x) => inRange(x.createdAt, r));
/** What a return took off revenue: what the goods were sold for, less their VAT (docs/adr/0054). */
const returnNet = (x: { readonly amount: number; readonly vatAmount: number }) => x.amount - x.vatAmount;
/**
 * A sale's lines and the range's returned lines, as signed rows (returns negative): what the line reports add up.
 * A line's revenue is its total less its VAT when the prices held it; a returned line's, its share of both.
 */
const netLines = (t: Tables, businessId: string, r: DayRange) => {
  const inclusive = new Map(salesOf(t, businessId).map((s) => [s.id, s.vat?.pricesIncludeVat === true]));
  return [
    ...completed(t, businessId, r).flatMap((s) => s.lines.map((l) => ({ productId: l.productId, units: l.quantity, revenue: lineRevenue(s, l), cost: BigInt(l.quantity) * BigInt(l.costPrice ?? 0) }))),
    ...returnsIn(t, businessId, r).flatMap((x) =>
      x.lines.map((l) => ({ productId: l.productId, units: -l.quantity, revenue: -(l.lineAmount - (inclusive.get(x.saleId) ? l.vatAmount : 0)), cost: -BigInt(l.costReturned) })),
    ),
  ];
};
const expensesOf = (t: Tables, businessId: string, r: DayRange) =>
  values(t.expenses).filter((e) => e.businessId === businessId && e.deletedAt === null && e.spentOn >= r.from && e.spentOn <= r.to);
const paymentsOf = (t: Tables, businessId: string, r: DayRange) =>
  values(t.creditEntries).filter((e) => e.businessId === businessId && e.kind === 'PAYMENT' && inRange(e.createdAt, r));
/** Invoices that count (sent, not proforma, not cancelled: docs/adr/0074) issued in the range. */
const invoicesIn = (t: Tables, businessId: string, r: DayRange) =>
  values(t.invoices).filter(
    (i) => i.businessId === businessId && i.type !== 'PROFORMA' && ['SENT', 'PARTIALLY_PAID', 'PAID'].includes(i.status) && i.issueDate >= r.from && i.issueDate <= r.to,
  );
const invoiceCost = (i: StoredInvoice) => total(i.lines, (l) => BigInt(l.quantity) * BigInt(l.unitCost ?? 0));
const invoicePaymentsIn = (t: Tables, businessId: string, r: DayRange) => values(t.invoicePayments).filter((p) => p.businessId === businessId && inRange(p.paidAt, r));
const goodsOf = (t: Tables, businessId: string) => values(t.products).filter((p) => p.businessId === businessId && p.type === 'PRODUCT' && p.archivedAt === null);
const isLow = (p: Product) => p.lowStockThreshold !== null && p.quantity <= p.lowStockThreshold;
/** A line's revenue: its total less its VAT when the prices held it (docs/adr/0054). */
function lineRevenue(s: Sale, l: SaleLine) {
  return l.lineTotal - (s.vat?.pricesIncludeVat ? (l.vat?.amount ?? 0) : 0);
}
/** An expense as the P&L counts it: net of its input VAT for a VAT-registered business. */
const expenseCost = (t: Tables, e: Pick<Expense, 'businessId' | 'amount' | 'vatAmount'>) => e.amount - (t.businesses.get(e.businessId)?.vatRegistered ? (e.vatAmount ?? 0) : 0);

const periodOf = (t: Tables, businessId: string, r: DayRange): PeriodSums => {
  const sales = completed(t, businessId, r);
  const returns = returnsIn(t, businessId, r);
  const invoices = invoicesIn(t, businessId, r);
  const invoiceRevenue = total(invoices, (i) => i.total - i.vatTotal);
  return {
    // net of VAT and of the range's returns, their VAT given back too (docs/adr/0054, 0058); sent invoices by issue date (0074)
    revenue: total(sales, netOfVat) + invoiceRevenue - total(returns, returnNet),
    returns: total(returns, returnNet),
    returnsCount: returns.length,
    salesCount: sales.length,
    invoiceCount: invoices.length,
    invoiceRevenue,
    discounts: total(sales, (s) => s.discount + s.lineDiscountTotal) + total(invoices, (i) => i.discountTotal),
    costOfGoods: total(sales, costOf) + total(invoices, invoiceCost) - total(returns, (x) => x.costReturned),
    creditGiven: total(sales, (s) => s.total - s.amountPaid),
    creditCollected: total(paymentsOf(t, businessId, r), (e) => -e.amount),
    expenses: total(expensesOf(t, businessId, r), (e) => expenseCost(t, e)),
  };
};

/** Rows grouped by a key, in first-seen order. */
const groupBy = <T>(rows: readonly T[], key: (x: T) => string) => {
  const out = new Map<string, T[]>();
  for (const x of rows) out.set(key(x), [...(out.get(key(x)) ?? []), x]);
  return out;
};
const byBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const byAmountThenName = (a: CategoryAmount, b: CategoryAmount) => byBig(b.amount, a.amount) || a.category.localeCompare(b.category) || (a.categoryId < b.categoryId ? -1 : 1);
const methodSums = <M extends string>(rows: readonly { method: M; amount: number }[]): MethodSum<M>[] =>
  [...groupBy(rows, (x) => x.method)].sort(([a], [b]) => (a < b ? -1 : 1)).map(([method, xs]) => ({ method: method as M, count: xs.length, total: total(xs, (x) => x.amount) }));
const alertItem = (p: Product): StockAlertItem => ({ productId: p.id, name: p.name, sku: p.sku, category: p.category, quantity: p.quantity, lowStockThreshold: p.lowStockThreshold });
const alertOrder = (a: Product, b: Product) => a.quantity - b.quantity || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
const nullsLast = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/** The Lagos months of a range, each cut to the range, oldest first. */
const monthsOf = (range: DayRange): DayRange[] => {
  const months: DayRange[] = [];
  const [toY, toM] = range.to.split('-').map(Number) as [number, number];
  for (let [y, m] = range.from.split('-').map(Number) as [number, number]; y * 12 + m <= toY * 12 + toM; [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1]) {
    const month = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    const last = `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
    months.push({ from: `${month}-01` < range.from ? range.from : `${month}-01`, to: last < range.to ? last : range.to });
  }
  return months;
};

const activityOf = (t: Tables, businessId: string, r: DayRange): MonthActivity => {
  const all = salesOf(t, businessId).filter((s) => inRange(s.createdAt, r));
  const done = all.filter((s) => s.status === 'COMPLETED');
  const tendered = (s: Sale, ms: readonly PaymentMethod[]) => s.payments.filter((p) => ms.includes(p.method)).reduce((n, p) => n + p.amount, 0);
  const transfer = (s: Sale) => tendered(s, ['TRANSFER']);
  const card = (s: Sale) => tendered(s, ['CARD', 'POS']);
  // a return counts against its sale's (first) method, as charged
  const methodOf = new Map(salesOf(t, businessId).map((s) => [s.id, s.paymentMethod]));
  const returns = returnsIn(t, businessId, r);
  const returned = (ms?: readonly PaymentMethod[]) => total(returns.filter((x) => !ms || ms.includes(methodOf.get(x.saleId)!)), (x) => x.amount);
  return {
    month: r.from.slice(0, 7),
    salesCount: done.length,
    salesTotal: total(done, netOfVat) - total(returns, returnNet),
    tenderedTotal: total(done, (s) => s.total) - returned(),
    voidedCount: all.filter((s) => s.status === 'VOIDED').length,
    transferCount: done.filter((s) => transfer(s) > 0).length,
    transferTotal: total(done, transfer) - returned(['TRANSFER']),
    cardCount: done.filter((s) => card(s) > 0).length,
    cardTotal: total(done, card) - returned(['CARD', 'POS']),
    daysWithSales: new Set(done.map((s) => lagosDate(s.createdAt))).size,
  };
};

/** The report queries over the in-memory tables: the same sums the SQL adapter asks PostgreSQL for. */
export const inMemoryReportsModule: InMemoryModule<{}, ReportRepositories, Tables> = {
  tables: () => ({}),
  repositories: (t) => ({
    reports: {
      periodSums: async (businessId, current, previous) => ({ current: periodOf(t, businessId, current), previous: periodOf(t, businessId, previous) }),
      receivables: async (businessId, range, today) => {
        const invoices = invoicesIn(t, businessId, range);
        const owed = (is: readonly StoredInvoice[]) => total(is, (i) => i.total - i.amountPaid);
        return {
          invoiced: total(invoices, (i) => i.total),
          collected: total(invoicePaymentsIn(t, businessId, range), (p) => p.amount),
          outstanding: owed(invoices),
          overdue: owed(invoices.filter((i) => i.dueDate < today)),
        };
      },
      creditOutstanding: async (businessId) => kobo(Number(total(values(t.customers).filter((c) => c.businessId === businessId), (c) => Math.max(c.creditBalance, 0)))),
      topProducts: async (businessId, range, type, limit) => {
        const products = new Map(values(t.products).filter((p) => p.businessId === businessId).map((p) => [p.id, p]));
        const lines = netLines(t, businessId, range).filter((l) => !type || products.get(l.productId)?.type === type);
        return [...groupBy(lines, (l) => l.productId)]
          .map(([productId, ls]) => ({ productId, name: products.get(productId)!.name, units: sum(ls, (l) => l.units), revenue: total(ls, (l) => l.revenue) }))
          .sort((a, b) => byBig(b.revenue, a.revenue) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.productId < b.productId ? -1 : 1))
          .slice(0, limit);
      },
      profitLoss: async (businessId, range) => {
        const months = monthsOf(range);
        const categories = new Map(values(t.expenseCategories).map((c) => [c.id, c.name]));
        const lineOf = (month: string | null, r: DayRange): ProfitLossSums => {
          const p = periodOf(t, businessId, r);
          const expenses = [...groupBy(expensesOf(t, businessId, r), (e) => e.categoryId)]
            .map(([categoryId, es]) => ({ categoryId, category: categories.get(categoryId)!, amount: total(es, (e) => expenseCost(t, e)) }))
            .sort(byAmountThenName);
          return { month, revenue: p.revenue, returns: p.returns, discounts: p.discounts, costOfGoods: p.costOfGoods, expenses, totalExpenses: p.expenses };
        };
        return [...months.map((m) => lineOf(m.from.slice(0, 7), m)), lineOf(null, range)];
      },
      stockValue: async (businessId) =>
        [...groupBy(goodsOf(t, businessId), (p) => JSON.stringify(p.category))]
          .map(([, ps]) => ({
            category: ps[0]!.category, products: ps.length, units: sum(ps, (p) => p.quantity),
            atCost: total(ps, (p) => BigInt(p.quantity) * BigInt(p.costPrice ?? 0)), atPrice: total(ps, (p) => BigInt(p.quantity) * BigInt(p.price)),
          }))
          .sort((a, b) => nullsLast(a.category, b.category)),
      stockAlerts: async (businessId, limit) => {
        const goods = goodsOf(t, businessId).sort(alertOrder);
        const low = goods.filter(isLow);
        const out = goods.filter((p) => p.quantity === 0);
        return { lowStockCount: low.length, outOfStockCount: out.length, lowStock: low.slice(0, limit).map(alertItem), outOfStock: out.slice(0, limit).map(alertItem) };
      },
      daySums: async (businessId, day) => {
        const range = { from: day, to: day };
        const all = salesOf(t, businessId).filter((s) => inRange(s.createdAt, range));
        const done = all.filter((s) => s.status === 'COMPLETED');
        const voided = all.filter((s) => s.status === 'VOIDED');
        // money by tender, not by the sale's first method (docs/adr/0055)
        const sales = methodSums<PaymentMethod>(done.flatMap((s) => s.payments.map((p) => ({ method: p.method, amount: p.amount }))));
        const returns = returnsIn(t, businessId, range);
        return {
          sales,
          salesCount: done.length,
          // net of VAT and of the day's returns (their VAT given back too)
          revenue: total(done, netOfVat) - total(returns, returnNet),
          vat: total(done, (s) => s.vat?.total ?? 0) - total(returns, (x) => x.vatAmount),
          voids: { count: voided.length, total: total(voided, (s) => s.total) },
          returns: { count: returns.length, total: total(returns, (x) => x.amount) },
          refunds: methodSums<RefundMethod>(returns.map((x) => ({ method: x.refundMethod, amount: x.refundAmount }))),
          discounts: total(done, (s) => s.discount + s.lineDiscountTotal),
          expenses: methodSums(expensesOf(t, businessId, range).map((e) => ({ method: e.paymentMethod, amount: e.amount }))),
          creditGiven: total(done, (s) => s.total - s.amountPaid),
          creditCollected: methodSums<CreditPaymentMethod>(paymentsOf(t, businessId, range).map((e) => ({ method: e.method as CreditPaymentMethod, amount: -e.amount }))),
          invoicePayments: methodSums<InvoicePaymentMethod>(invoicePaymentsIn(t, businessId, range).map((p) => ({ method: p.method, amount: p.amount }))),
          cashSalesReceived: sales.find((x) => x.method === 'CASH')?.total ?? 0n,
        };
      },
      salesByCategory: async (businessId, range) => {
        const products = new Map(values(t.products).filter((p) => p.businessId === businessId).map((p) => [p.id, p]));
        const lines = netLines(t, businessId, range);
        const all = total(lines, (l) => l.revenue);
        return [...groupBy(lines, (l) => JSON.stringify(products.get(l.productId)!.category))]
          .map(([key, ls]) => {
            const revenue = total(ls, (l) => l.revenue);
            const cost = total(ls, (l) => l.cost);
            return { category: JSON.parse(key) as string | null, revenue, units: sum(ls, (l) => l.units), costOfGoods: cost, grossProfit: revenue - cost, sharePct: percentOf(revenue, all) };
          })
          .sort((a, b) => byBig(b.revenue, a.revenue) || nullsLast(a.category, b.category));
      },
      monthActivity: async (businessId, range) => monthsOf(range).map((m) => activityOf(t, businessId, m)),
      vatSums: async (businessId, range) => {
        const sales = completed(t, businessId, range).filter((s) => s.vat);
        const lines = sales.flatMap((s) => s.lines.map((l) => l.vat ?? { rate: 0, amount: 0, net: 0 }));
        const withVat = expensesOf(t, businessId, range).filter((e) => (e.vatAmount ?? 0) > 0);
        // the range's returns of sales that carried VAT, by the returned line's rate
        const byId = new Map(salesOf(t, businessId).map((s) => [s.id, s]));
        const returns = returnsIn(t, businessId, range).filter((x) => byId.get(x.saleId)?.vat);
        const returned = returns.flatMap((x) => x.lines.map((l) => ({ rate: byId.get(x.saleId)!.lines[l.position]!.vat?.rate ?? 0, net: l.amount - l.vatAmount, amount: l.vatAmount })));
        const invoices = invoicesIn(t, businessId, range).filter((i) => i.pricesIncludeVat !== null);
        const invoiced = invoices.flatMap((i) => i.lines.map((l) => ({ rate: l.vatRate, net: l.lineTotal - (i.pricesIncludeVat ? l.vatAmount : 0), amount: l.vatAmount })));
        const byRate = (ls: readonly { rate: number; net: number; amount: number }[]) =>
          [...groupBy(ls, (l) => String(l.rate))]
            .map(([rate, xs]) => ({ rate: Number(rate), net: total(xs, (l) => l.net), vat: total(xs, (l) => l.amount) }))
            .sort((a, b) => b.rate - a.rate);
        return {
          sales: byRate(lines),
          salesCount: sales.length,
          returns: byRate(returned),
          returnsCount: returns.length,
          invoices: byRate(invoiced),
          invoicesCount: invoices.length,
          expensesCount: withVat.length,
          expensesAmount: total(withVat, (e) => e.amount),
          inputVat: total(withVat, (e) => e.vatAmount ?? 0),
        };
      },
    },
    // the reports above sum the rows each time: nothing is kept by day, so no business has days to roll up
    reportDayTotals: { businessesToRollUp: async () => [], rollUp: async () => 0 },
  }),
};
