import * as E from 'fp-ts/lib/Either.js';
import { lagosDate } from '../../domain/lagos-time.js';
import type { InvalidReportRange } from '../../domain/report.js';
import type { Actor } from '../../domain/roles.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { ReportRepositories } from '../reports/ports.js';
import { getInventory, getProfitLoss, type ProfitLossLine } from '../reports/reports.js';
import type { StockValue } from '../reports/ports.js';
import { reportHeader, type ExportFailure, type ReportQuery } from './export-sales.js';
import { defineReport, type Report, type ReportDefinition } from './report.js';

type Deps = { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'> & Pick<ReportRepositories, 'reports'>>; clock: Clock };

export const PROFIT_LOSS_REPORT: ReportDefinition<ProfitLossLine> = {
  name: 'profit-loss',
  title: 'Profit and loss',
  columns: [
    { key: 'month', label: 'Month', kind: 'text', cell: (l) => l.month ?? 'Total' },
    { key: 'revenue', label: 'Revenue', kind: 'money', cell: (l) => l.revenue },
    { key: 'returns', label: 'Returns (taken off revenue)', kind: 'money', cell: (l) => l.returns },
    { key: 'discounts', label: 'Discounts', kind: 'money', cell: (l) => l.discounts },
    { key: 'cost_of_goods_sold', label: 'Cost of goods sold', kind: 'money', cell: (l) => l.costOfGoods },
    { key: 'gross_profit', label: 'Gross profit', kind: 'money', cell: (l) => l.grossProfit },
    { key: 'gross_margin_pct', label: 'Gross margin %', kind: 'text', cell: (l) => (l.grossMarginPct === null ? null : String(l.grossMarginPct)) },
    { key: 'total_expenses', label: 'Expenses', kind: 'money', cell: (l) => l.totalExpenses },
    { key: 'net_profit', label: 'Net profit', kind: 'money', cell: (l) => l.netProfit },
  ],
};

/** Profit and loss of the period: one row per Lagos month, then the total (GET /reports/profit-loss as a file). */
export const exportProfitLoss =
  (deps: Deps) =>
  async (actor: Actor, query: ReportQuery): Promise<E.Either<ExportFailure, Report>> => {
    const header = await reportHeader(deps, actor, query);
    if (E.isLeft(header)) return header;
    const pl = await getProfitLoss(deps)(actor, header.right.period.start, header.right.period.end);
    if (E.isLeft(pl)) return pl;
    return E.right(defineReport(PROFIT_LOSS_REPORT, header.right, [...pl.right.months, pl.right.total]));
  };

type InventoryRow = Omit<StockValue, 'category'> & { readonly category: string | null; readonly isTotal?: boolean };

export const INVENTORY_REPORT: ReportDefinition<InventoryRow> = {
  name: 'inventory',
  title: 'Inventory value',
  columns: [
    { key: 'category', label: 'Category', kind: 'text', cell: (r) => (r.isTotal ? 'Total' : (r.category ?? '(no category)')) },
    { key: 'products', label: 'Products', kind: 'integer', cell: (r) => r.products },
    { key: 'units', label: 'Units', kind: 'integer', cell: (r) => r.units },
    { key: 'stock_value_at_cost', label: 'Value at cost', kind: 'money', cell: (r) => r.atCost },
    { key: 'stock_value_at_price', label: 'Value at price', kind: 'money', cell: (r) => r.atPrice },
  ],
};

/**
 * The stock on hand now, valued at cost and at selling price per category and in total (GET /reports/inventory
 * as a file). A snapshot: its period is today, and a start_date or end_date is refused rather than ignored.
 */
export const exportInventory =
  (deps: Deps) =>
  async (actor: Actor, query: ReportQuery): Promise<E.Either<ExportFailure, Report>> => {
    if (query.startDate !== undefined || query.endDate !== undefined) {
      const field = query.startDate !== undefined ? 'start_date' : 'end_date';
      return E.left({ _tag: 'InvalidReportRange', field, reason: 'is not taken: the inventory export is the stock as it is now' });
    }
    const today = lagosDate(deps.clock.now());
    const header = await reportHeader(deps, actor, { startDate: today, endDate: today });
    if (E.isLeft(header)) return header;
    const inventory = await getInventory(deps)(actor);
    return E.right(defineReport(INVENTORY_REPORT, header.right, [...inventory.categories, { category: null, ...inventory.total, isTotal: true }]));
  };
