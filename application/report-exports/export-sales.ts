import * as E from 'fp-ts/lib/Either.js';
import { lagosDate, lagosDateTime, lagosDayEnd, lagosDayStart } from '../../domain/lagos-time.js';
import { kobo, nairaText } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { ReportExportRepositories, SaleExportCursor, SaleExportRow } from './ports.js';
import type { InvalidReportRange } from '../../domain/report.js';
import { defineReport, reportPeriod, type Report, type ReportDefinition } from './report.js';

/** Sales read per query while exporting: memory stays bounded by one batch, whatever the period holds. */
export const SALES_EXPORT_BATCH = 1000;

export const SALES_REPORT: ReportDefinition<SaleExportRow> = {
  name: 'sales',
  title: 'Sales',
  columns: [
    { key: 'receipt_number', label: 'Receipt', kind: 'text', cell: (s) => s.receiptNumber },
    { key: 'date_time', label: 'Date and time', kind: 'date', cell: (s) => lagosDateTime(s.createdAt) },
    { key: 'cashier', label: 'Cashier', kind: 'text', cell: (s) => s.cashier },
    { key: 'customer', label: 'Customer', kind: 'text', cell: (s) => s.customer },
    { key: 'payment_method', label: 'Payment', kind: 'text', cell: (s) => s.paymentMethod },
    { key: 'status', label: 'Status', kind: 'text', cell: (s) => s.status },
    { key: 'subtotal', label: 'Subtotal', kind: 'money', cell: (s) => s.subtotal },
    { key: 'discount', label: 'Discount', kind: 'money', cell: (s) => s.discount },
    { key: 'total', label: 'Total', kind: 'money', cell: (s) => s.total },
    { key: 'amount_paid', label: 'Paid', kind: 'money', cell: (s) => s.amountPaid },
    { key: 'balance_due', label: 'Balance due', kind: 'money', cell: (s) => s.balanceDue },
    { key: 'outstanding', label: 'Outstanding', kind: 'money', cell: (s) => s.outstanding },
    { key: 'returned', label: 'Returned', kind: 'money', cell: (s) => s.returned },
    { key: 'net_total', label: 'Net total', kind: 'money', cell: (s) => kobo(s.total - s.returned) },
    // the tenders (docs/adr/0055): `CASH 3000.00 TRANSFER 2000.00`
    { key: 'payments', label: 'Payments', kind: 'text', cell: (s) => s.payments.map((p) => `${p.method} ${nairaText(p.amount)}`).join(' ') },
  ],
};

/**
 * A VAT-registered business's sales export (docs/adr/0054): subtotal is the sale net of VAT (as the sale's
 * JSON shows it) and vat_total follows total. A business that is not registered keeps SALES_REPORT.
 */
export const SALES_REPORT_WITH_VAT: ReportDefinition<SaleExportRow> = {
  ...SALES_REPORT,
  columns: SALES_REPORT.columns.flatMap((c) =>
    c.key === 'subtotal'
      ? [{ ...c, label: 'Subtotal (net of VAT)', cell: (s: SaleExportRow) => s.total - s.vatTotal }]
      : c.key === 'total'
        ? [c, { key: 'vat_total', label: 'VAT', kind: 'money' as const, cell: (s: SaleExportRow) => s.vatTotal }]
        : [c],
  ),
};

export interface ReportQuery {
  readonly startDate?: string;
  readonly endDate?: string;
}

export type ExportFailure = InvalidReportRange | NotFound;

/** The business's name and the period of a report, or why the request cannot have one. */
export const reportHeader = async (
  deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'>>; clock: Clock },
  actor: Actor,
  query: ReportQuery,
): Promise<E.Either<ExportFailure, { businessName: string; period: { start: string; end: string }; generatedAt: Date; vatRegistered: boolean }>> => {
  const generatedAt = deps.clock.now();
  const period = reportPeriod(lagosDate(generatedAt), query.startDate, query.endDate);
  if ('_tag' in period) return E.left(period);
  const business = await deps.uow.read((r) => r.businesses.findById(actor.businessId));
  if (!business) return E.left(notFound);
  return E.right({ businessName: business.name, period, generatedAt, vatRegistered: business.vatRegistered });
};

/**
 * Every sale of the period's Lagos days (voided ones too, with their status), oldest first, read in
 * keyset batches of SALES_EXPORT_BATCH (each its own short read, no transaction held open), so an
 * export of any size runs in constant memory. Owner only (the route's roles).
 */
export const exportSales =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'> & ReportExportRepositories>; clock: Clock }) =>
  async (actor: Actor, query: ReportQuery): Promise<E.Either<ExportFailure, Report>> => {
    const header = await reportHeader(deps, actor, query);
    if (E.isLeft(header)) return header;
    const range = { from: lagosDayStart(header.right.period.start), to: lagosDayEnd(header.right.period.end) };
    const sales = async function* () {
      let after: SaleExportCursor | undefined;
      for (;;) {
        const batch = await deps.uow.read((r) => r.reportExports.salesBatch(actor.businessId, range, after, SALES_EXPORT_BATCH));
        yield* batch;
        if (batch.length < SALES_EXPORT_BATCH) return;
        const last = batch[batch.length - 1]!;
        after = { createdAt: last.createdAt, id: last.id };
      }
    };
    const { vatRegistered, ...head } = header.right;
    return E.right(defineReport(vatRegistered ? SALES_REPORT_WITH_VAT : SALES_REPORT, head, sales()));
  };
