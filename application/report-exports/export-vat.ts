import * as E from 'fp-ts/lib/Either.js';
import type { KoboSum } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import { basisPointsToPercent } from '../../domain/vat.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { ReportRepositories } from '../reports/ports.js';
import { getVatReport } from '../reports/reports.js';
import { reportHeader, type ExportFailure } from './export-sales.js';
import { defineReport, type Report, type ReportDefinition } from './report.js';

/** One row of the VAT return as a table: what it is, the rate (sales only), an amount net of VAT and a VAT amount. */
interface VatRow {
  readonly item: string;
  readonly rate: number | null;
  readonly net: KoboSum | null;
  readonly vat: KoboSum | null;
}

export const VAT_REPORT: ReportDefinition<VatRow> = {
  name: 'vat',
  title: 'VAT return',
  columns: [
    { key: 'item', label: 'Item', kind: 'text', cell: (r) => r.item },
    { key: 'rate_pct', label: 'Rate %', kind: 'text', cell: (r) => (r.rate === null ? null : String(basisPointsToPercent(r.rate))) },
    { key: 'net', label: 'Net of VAT', kind: 'money', cell: (r) => r.net },
    { key: 'vat', label: 'VAT', kind: 'money', cell: (r) => r.vat },
  ],
};

/**
 * GET /reports/vat as a file (docs/adr/0054): the sales and sent invoices (docs/adr/0074) of the month by rate, the output VAT, the expenses
 * with input VAT, the net VAT payable and the filing due date. `month` is YYYY-MM, the current Lagos month by default.
 */
export const exportVat =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'> & Pick<ReportRepositories, 'reports'>>; clock: Clock }) =>
  async (actor: Actor, month?: string): Promise<E.Either<ExportFailure, Report>> => {
    const vat = await getVatReport(deps)(actor, month);
    if (E.isLeft(vat)) return vat;
    const v = vat.right;
    const header = await reportHeader(deps, actor, { startDate: v.range.from, endDate: v.range.to });
    if (E.isLeft(header)) return header;
    const rows: VatRow[] = [
      ...v.sales.map((s) => ({ item: s.rate === 0 ? 'Sales, VAT-exempt' : 'Sales', rate: s.rate, net: s.net, vat: s.vat })),
      ...v.returns.map((s) => ({ item: 'Returns', rate: s.rate, net: -s.net, vat: -s.vat })),
      ...v.invoices.map((s) => ({ item: s.rate === 0 ? 'Invoices, VAT-exempt' : 'Invoices', rate: s.rate, net: s.net, vat: s.vat })),
      { item: 'Output VAT (sales and invoices less returns)', rate: null, net: v.salesNet + v.invoicesNet - v.returnsNet, vat: v.outputVat },
      { item: 'Input VAT (expenses)', rate: null, net: v.expensesAmount - v.inputVat, vat: v.inputVat },
      { item: 'Net VAT payable', rate: null, net: null, vat: v.netVatPayable },
      { item: `Due by ${v.dueDate}${v.tin ? `, TIN ${v.tin}` : ''}`, rate: null, net: null, vat: null },
    ];
    return E.right(defineReport(VAT_REPORT, header.right, rows));
  };
