import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { reportHeader, type ExportFailure, type ReportQuery } from './export-sales.js';
import type { CashFlowDay, ReportExportRepositories } from './ports.js';
import { defineReport, type Report, type ReportDefinition } from './report.js';

export const CASH_FLOW_REPORT: ReportDefinition<CashFlowDay> = {
  name: 'cash-flow',
  title: 'Cash flow',
  columns: [
    { key: 'date', label: 'Date', kind: 'date', cell: (d) => d.day },
    { key: 'sales_paid', label: 'Sales paid', kind: 'money', cell: (d) => d.salesPaid },
    { key: 'credit_collected', label: 'Credit collected', kind: 'money', cell: (d) => d.creditCollected },
    { key: 'invoices_paid', label: 'Invoices paid', kind: 'money', cell: (d) => d.invoicesPaid },
    { key: 'in_cash', label: 'In: cash', kind: 'money', cell: (d) => d.inCash },
    { key: 'in_transfer', label: 'In: transfer', kind: 'money', cell: (d) => d.inTransfer },
    { key: 'in_card', label: 'In: card', kind: 'money', cell: (d) => d.inCard },
    { key: 'in_pos', label: 'In: POS', kind: 'money', cell: (d) => d.inPos },
    { key: 'in_other', label: 'In: other', kind: 'money', cell: (d) => d.inOther },
    { key: 'money_in', label: 'Money in', kind: 'money', cell: (d) => d.moneyIn },
    { key: 'refunds', label: 'Refunds (in the out columns)', kind: 'money', cell: (d) => d.refunds },
    { key: 'out_cash', label: 'Out: cash', kind: 'money', cell: (d) => d.outCash },
    { key: 'out_transfer', label: 'Out: transfer', kind: 'money', cell: (d) => d.outTransfer },
    { key: 'out_card', label: 'Out: card', kind: 'money', cell: (d) => d.outCard },
    { key: 'out_pos', label: 'Out: POS', kind: 'money', cell: (d) => d.outPos },
    { key: 'out_other', label: 'Out: other', kind: 'money', cell: (d) => d.outOther },
    { key: 'money_out', label: 'Money out', kind: 'money', cell: (d) => d.moneyOut },
    { key: 'net', label: 'Net', kind: 'money', cell: (d) => d.net },
    { key: 'running_balance', label: 'Running balance', kind: 'money', cell: (d) => d.runningBalance },
  ],
};

/**
 * Money in and out per Lagos day of the period (every day, quiet ones as zeros): sales paid at the till
 * (voided sales left out), credit collected and invoice payments (on their paid_at day, docs/adr/0074), by payment method; live expenses and refunds of returned
 * goods by payment method (a credit note moves no money); the
 * day's net and the running balance from the period's first day (opening at 0). At most 366 rows,
 * computed by the database.
 */
export const exportCashFlow =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'> & ReportExportRepositories>; clock: Clock }) =>
  async (actor: Actor, query: ReportQuery): Promise<E.Either<ExportFailure, Report>> => {
    const header = await reportHeader(deps, actor, query);
    if (E.isLeft(header)) return header;
    const { start, end } = header.right.period;
    const days = await deps.uow.read((r) => r.reportExports.cashFlow(actor.businessId, start, end));
    return E.right(defineReport(CASH_FLOW_REPORT, header.right, days));
  };
