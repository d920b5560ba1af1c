import * as t from 'io-ts';
import type { Either } from 'fp-ts/lib/Either.js';
import type { ExportFailure, ReportQuery } from '../../../application/report-exports/export-sales.js';
import type { exportCashFlow } from '../../../application/report-exports/export-cash-flow.js';
import type { exportSales } from '../../../application/report-exports/export-sales.js';
import type { exportInventory, exportProfitLoss } from '../../../application/report-exports/export-reports.js';
import type { exportVat } from '../../../application/report-exports/export-vat.js';
import { monthDays } from '../../../domain/vat.js';
import type { Report } from '../../../application/report-exports/report.js';
import { MAX_REPORT_DAYS } from '../../../domain/report.js';
import type { Actor } from '../../../domain/roles.js';
import { renderReport, REPORT_CONTENT_TYPES, REPORT_FORMATS, reportFileName, type ReportFormat } from '../../reports-export/index.js';
import { doc, enumOf, object } from '../codecs.js';
import { vatMonthParam } from './reports.views.js';
import { lagosDayInput } from '../dates.js';
import { successOf } from '../failures.js';
import { failuresOf } from '../failure-codes.js';
import { OWNER_ONLY, route, type RouteDef } from '../route.js';

export interface ReportExportUseCases {
  readonly exportSales: ReturnType<typeof exportSales>;
  readonly exportCashFlow: ReturnType<typeof exportCashFlow>;
  readonly exportProfitLoss: ReturnType<typeof exportProfitLoss>;
  readonly exportInventory: ReturnType<typeof exportInventory>;
  readonly exportVat: ReturnType<typeof exportVat>;
}

const lagosDay = (description: string) => lagosDayInput(description);
const format = enumOf('format', REPORT_FORMATS, 'the file format (default csv)');
const periodQuery = object(
  'ReportExportQuery',
  {},
  {
    format,
    start_date: lagosDay('the first Lagos day, inclusive (default: the 1st of end_date\'s month)'),
    end_date: lagosDay(`the last Lagos day, inclusive (default: today in Lagos); at most ${MAX_REPORT_DAYS} days from start_date`),
  },
);
type PeriodQuery = t.TypeOf<typeof periodQuery> & { readonly month?: string };
/** A snapshot of now (the inventory) takes no period: the document declares only what the route takes (issue 32). */
const snapshotQuery = object('SnapshotReportExportQuery', {}, { format });
/** A monthly report (the VAT return) takes its month, YYYY-MM. */
const monthQuery = object('MonthReportExportQuery', {}, { format, month: vatMonthParam('the Lagos month, YYYY-MM (default: the current one)') });
/** The query a route takes: a period, a month, or (a snapshot) the format alone, which reads as a period left out. */
const queryOf = (kind: 'period' | 'snapshot' | 'month'): t.Type<PeriodQuery, unknown, unknown> =>
  kind === 'snapshot' ? snapshotQuery : kind === 'month' ? (monthQuery as t.Type<PeriodQuery, unknown, unknown>) : periodQuery;

/** The first row is read before the answer starts, so a database fault is still a proper error, not a cut-off file. */
const primed = async (report: Report): Promise<Report> => {
  const rows = report.rows[Symbol.asyncIterator]();
  const first = await rows.next();
  return {
    ...report,
    rows: (async function* () {
      for (let next = first; !next.done; next = await rows.next()) yield next.value;
    })(),
  };
};

/**
 * One export route: GET `path`?format=csv|xlsx|pdf&start_date&end_date, owner only, answered as the
 * file (streamed, no Content-Length) with a dated file name. `run` is the use case: it returns the
 * report (see application/report-exports/report.ts `defineReport`) or why there is none.
 */
export const reportExportRoute = (def: {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  /** What the rows are and what each column holds. */
  readonly description: string;
  /** A snapshot of now: only `format`; start_date or end_date is an unknown parameter (400). */
  readonly snapshot?: boolean;
  /** A month's report: `month` (YYYY-MM) instead of start_date and end_date; the query's period is that month. */
  readonly monthly?: boolean;
  readonly run: (actor: Actor, query: ReportQuery) => Promise<Either<ExportFailure, Report>>;
}): RouteDef<undefined, PeriodQuery> =>
  route({
    method: 'get',
    path: def.path,
    operationId: def.operationId,
    tag: 'Reports',
    summary: def.summary,
    description:
      `${def.description} format=csv (default; UTF-8 with a BOM, a header row of the column keys, money as naira with 2 decimals, a text cell ` +
      "starting with = + - @, tab or CR prefixed with ' as in the products export), xlsx (one sheet: title, business, period, then the table " +
      'with money as numbers and dates as dates) or pdf (A4, business name, period, the table with its header on every page, page numbers, ' +
      'amounts in naira). ' +
      (def.snapshot || def.monthly ? '' : `start_date and end_date are Lagos days, both inclusive; end before start or more than ${MAX_REPORT_DAYS} days is 400. `) +
      'The file is streamed as it is read from the database (no Content-Length). Owner only (STAFF 403).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: queryOf(def.snapshot ? 'snapshot' : def.monthly ? 'month' : 'period'),
    success: {
      status: 200,
      description: 'The report file, in the format asked for',
      contentType: REPORT_CONTENT_TYPES.csv,
      alternatives: { [REPORT_CONTENT_TYPES.xlsx]: 'with format=xlsx: an Excel workbook', [REPORT_CONTENT_TYPES.pdf]: 'with format=pdf: a PDF document (A4)' },
      data: doc('ReportCsv', { type: 'string', description: 'with format=csv (the default): CSV with a header row' }),
      headers: { 'Content-Disposition': `attachment; filename="<report>-<start_date>_<end_date>.<format>", e.g. ${def.path.split('/')[2]}-2026-11-01_2026-11-30.csv` },
    },
    failures: failuresOf<ExportFailure>({ InvalidReportRange: true, NotFound: true }),
    errors: [],
    handler: async ({ actor, query, ctx }) => {
      const chosen: ReportFormat = query.format ?? 'csv';
      const days = query.month ? monthDays(query.month) : undefined;
      const answer = await def.run(actor, {
        ...(query.start_date ? { startDate: query.start_date } : {}),
        ...(query.end_date ? { endDate: query.end_date } : {}),
        ...(days ? { startDate: days.from, endDate: days.to } : {}),
      });
      const report = await primed(successOf(answer, 'business'));
      const body = renderReport(chosen, report, (e) => ctx.res.destroy(e)); // cut the download off rather than end a truncated file
      return {
        status: 200,
        message: `${report.title} export`,
        data: null,
        file: { contentType: REPORT_CONTENT_TYPES[chosen], body },
        headers: { 'Content-Disposition': `attachment; filename="${reportFileName(report, chosen)}"` },
      };
    },
  });

export const reportExportRoutes = (uc: ReportExportUseCases) => [
  reportExportRoute({
    path: '/reports/sales/export',
    operationId: 'exportSalesReport',
    summary: 'Export the sales of a period (owner)',
    description:
      'One row per sale made in the period (voided sales too, with status VOIDED), oldest first: receipt_number, date_time (Lagos, ' +
      'YYYY-MM-DD HH:mm), cashier, customer, payment_method, status, subtotal, discount, total, amount_paid, balance_due (at the sale), outstanding (still owed now, after credit collected).',
    run: uc.exportSales,
  }),
  reportExportRoute({
    path: '/reports/cash-flow/export',
    operationId: 'exportCashFlowReport',
    summary: 'Export the cash flow of a period, per day (owner)',
    description:
      'One row per Lagos day of the period (quiet days as zeros): money in as sales_paid (what non-voided sales were paid at the till) and ' +
      'credit_collected, invoices_paid (payments on invoices on their Lagos paid_at day, never also in credit_collected; docs/adr/0074), and in by ' +
      'method (in_cash, in_transfer, in_card, in_pos, in_other: the deposit on a CREDIT sale has no method and an ONLINE invoice payment count as ' +
      'other); money out as expenses (deleted ones left out) by method (out_cash, out_transfer, out_card, out_pos, out_other); money_in, ' +
      'money_out, net, and running_balance (the sum of net from the first day of the period, opening at 0).',
    run: uc.exportCashFlow,
  }),
  reportExportRoute({
    path: '/reports/profit-loss/export',
    operationId: 'exportProfitLossReport',
    summary: 'Export the profit and loss of a period, per month (owner)',
    description:
      'GET /reports/profit-loss as a file: one row per Lagos month of the period, then a Total row: month, revenue (net of voided sales), ' +
      'discounts, cost_of_goods_sold (at the cost price stored on each sale line), gross_profit, gross_margin_pct, total_expenses (deleted ones ' +
      'left out; by category in GET /reports/profit-loss), net_profit.',
    run: uc.exportProfitLoss,
  }),
  reportExportRoute({
    path: '/reports/inventory/export',
    operationId: 'exportInventoryReport',
    summary: 'Export the stock value now, per category (owner)',
    description:
      'GET /reports/inventory as a file: one row per product category, then a Total row: category, products, units, stock_value_at_cost ' +
      '(a product without a cost price counts 0), stock_value_at_price. Goods only (services and archived products left out). A snapshot of ' +
      'now: its period is today; it takes no start_date or end_date (400, an unknown parameter, rather than ignored).',
    snapshot: true,
    run: uc.exportInventory,
  }),
  reportExportRoute({
    path: '/reports/vat/export',
    operationId: 'exportVatReport',
    summary: "Export a month's VAT return (owner)",
    description:
      'GET /reports/vat as a file, for month (YYYY-MM, default the current Lagos month): one row per VAT rate of the month\'s completed sales (item, rate_pct, net of VAT, vat), ' +
      'then Output VAT (sales), Input VAT (expenses: net is their amount less the VAT), Net VAT payable, and the filing due date (the 21st of ' +
      'the next month) with the TIN.',
    monthly: true,
    run: (actor, query) => uc.exportVat(actor, query.startDate?.slice(0, 7)),
  }),
];
