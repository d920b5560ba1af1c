import type { Sql } from './sql-session.js';
import type { InvoiceRepositories, InvoiceRepository, InvoiceSort } from '../../../application/invoices/ports.js';
import { kobo } from '../../../domain/money.js';
import type { Invoice, InvoiceLine, InvoicePayment, InvoicePaymentMethod, InvoiceStatus, InvoiceType } from '../../../domain/invoice.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import { optionalKobo, type Row } from './sql-helpers.js';

// Invoices as plain rows (docs/adr/0072); the customer's name and phone are joined in.

const COLUMNS =
  "i.id, i.business_id, i.type, i.number, i.status, i.customer_id, i.branch_id, to_char(i.issue_date, 'YYYY-MM-DD') as issue_date, to_char(i.due_date, 'YYYY-MM-DD') as due_date, " +
  'i.payment_terms_days, i.subtotal, i.discount_total, i.vat_total, i.total, i.amount_paid, i.prices_include_vat, i.notes, i.share_token, i.converted_from, ' +
  'i.created_by, i.created_at, i.updated_at, i.sent_at, i.cancelled_at, c.name as customer_name, c.phone as customer_phone';
const FROM = 'invoices i join customers c on c.business_id = i.business_id and c.id = i.customer_id';

const INVOICES: KeysetSource<InvoiceSort> = {
  select: COLUMNS,
  from: FROM,
  tenantColumn: 'i.business_id',
  idColumn: 'i.id',
  sort: { created_at: { column: 'i.created_at', type: 'timestamptz' }, total: { column: 'i.total', type: 'bigint' }, due_date: { column: 'i.due_date', type: 'date' } },
  search: ['i.number', 'c.name'],
  // the issue date's Lagos midnight: the list's date range bounds issue dates
  dateColumn: "(i.issue_date::timestamp at time zone 'Africa/Lagos')",
};

const fromRow = (r: Row, lines: InvoiceLine[] = [], payments: InvoicePayment[] = []): Invoice => ({
  id: String(r.id),
  businessId: String(r.business_id),
  type: r.type as InvoiceType,
  number: (r.number as string | null) ?? null,
  status: r.status as InvoiceStatus,
  customerId: String(r.customer_id),
  customerName: String(r.customer_name),
  customerPhone: (r.customer_phone as string | null) ?? null,
  branchId: String(r.branch_id),
  issueDate: String(r.issue_date),
  dueDate: String(r.due_date),
  paymentTermsDays: Number(r.payment_terms_days),
  lines,
  subtotal: kobo(Number(r.subtotal)),
  discountTotal: kobo(Number(r.discount_total)),
  vatTotal: kobo(Number(r.vat_total)),
  total: kobo(Number(r.total)),
  amountPaid: kobo(Number(r.amount_paid)),
  pricesIncludeVat: r.prices_include_vat === null || r.prices_include_vat === undefined ? null : r.prices_include_vat === true,
  notes: (r.notes as string | null) ?? null,
  payments,
  shareToken: String(r.share_token),
  convertedFrom: (r.converted_from as string | null) ?? null,
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
  sentAt: asOptionalDate(r.sent_at),
  cancelledAt: asOptionalDate(r.cancelled_at),
});

const lineFromRow = (r: Row): InvoiceLine => ({
  position: Number(r.position),
  productId: (r.product_id as string | null) ?? null,
  description: String(r.description),
  quantity: Number(r.quantity),
  unitPrice: kobo(Number(r.unit_price)),
  discount: kobo(Number(r.discount)),
  vatRate: Number(r.vat_rate),
  vatAmount: kobo(Number(r.vat_amount)),
  lineTotal: kobo(Number(r.line_total)),
  unitCost: optionalKobo(r.unit_cost),
});

const paymentFromRow = (r: Row): InvoicePayment => ({
  id: String(r.id),
  amount: kobo(Number(r.amount)),
  method: r.method as InvoicePaymentMethod,
  paidAt: asDate(r.paid_at),
  reference: (r.reference as string | null) ?? null,
  createdBy: (r.created_by as string | null) ?? null,
  createdAt: asDate(r.created_at),
});

const insertLines = async (db: Sql, x: Invoice) => {
  if (x.lines.length === 0) return;
  const values = x.lines.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  await db.execute(
    `insert into invoice_lines (invoice_id, business_id, position, product_id, description, quantity, unit_price, discount, vat_rate, vat_amount, line_total, unit_cost) values ${values}`,
    x.lines.flatMap((l) => [x.id, x.businessId, l.position, l.productId, l.description, l.quantity, l.unitPrice, l.discount, l.vatRate, l.vatAmount, l.lineTotal, l.unitCost]),
  );
};

const withDetails = async (db: Sql, row: Row | undefined): Promise<Invoice | undefined> => {
  if (!row) return undefined;
  const [lines, payments] = await Promise.all([
    db.execute<Row[]>('select * from invoice_lines where business_id = ? and invoice_id = ? order by position', [row.business_id, row.id]),
    db.execute<Row[]>('select * from invoice_payments where business_id = ? and invoice_id = ? order by created_at, id', [row.business_id, row.id]),
  ]);
  return fromRow(row, lines.map(lineFromRow), payments.map(paymentFromRow));
};

export const sqlInvoices = (db: Sql): InvoiceRepository => ({
  async add(x) {
    await db.execute(
      `insert into invoices (id, business_id, type, number, status, customer_id, branch_id, issue_date, due_date, payment_terms_days, subtotal, discount_total, vat_total, total,
         amount_paid, prices_include_vat, notes, share_token, converted_from, created_by, created_at, updated_at, sent_at, cancelled_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        x.id, x.businessId, x.type, x.number, x.status, x.customerId, x.branchId, x.issueDate, x.dueDate, x.paymentTermsDays, x.subtotal, x.discountTotal, x.vatTotal, x.total,
        x.amountPaid, x.pricesIncludeVat, x.notes, x.shareToken, x.convertedFrom, x.createdBy, x.createdAt, x.updatedAt, x.sentAt, x.cancelledAt,
      ],
    );
    await insertLines(db, x);
  },
  async save(x) {
    await db.execute(
      `update invoices set number = ?, status = ?, customer_id = ?, branch_id = ?, issue_date = ?, due_date = ?, payment_terms_days = ?, subtotal = ?, discount_total = ?,
         vat_total = ?, total = ?, amount_paid = ?, prices_include_vat = ?, notes = ?, updated_at = ?, sent_at = ?, cancelled_at = ? where business_id = ? and id = ?`,
      [
        x.number, x.status, x.customerId, x.branchId, x.issueDate, x.dueDate, x.paymentTermsDays, x.subtotal, x.discountTotal,
        x.vatTotal, x.total, x.amountPaid, x.pricesIncludeVat, x.notes, x.updatedAt, x.sentAt, x.cancelledAt, x.businessId, x.id,
      ],
    );
    await db.execute('delete from invoice_lines where business_id = ? and invoice_id = ?', [x.businessId, x.id]);
    await insertLines(db, x);
  },
  async remove(businessId, id) {
    await db.execute('delete from invoice_lines where business_id = ? and invoice_id = ?', [businessId, id]);
    await db.execute('delete from invoices where business_id = ? and id = ?', [businessId, id]);
  },
  async findById(businessId, id, options = {}) {
    // lock the invoice's own row only (not the customer's)
    const [row] = await db.execute<Row[]>(`select ${COLUMNS} from ${FROM} where i.business_id = ? and i.id = ?${options.forUpdate ? ' for update of i' : ''}`, [businessId, id]);
    return withDetails(db, row);
  },
  async findByToken(token) {
    const [row] = await db.execute<Row[]>(`select ${COLUMNS} from ${FROM} where i.share_token = ?`, [token]);
    return withDetails(db, row);
  },
  async nextNumber(businessId, series) {
    const [row] = await db.execute<{ value: number }[]>(
      `insert into invoice_counters (business_id, series, value) values (?, ?, 1)
       on conflict (business_id, series) do update set value = invoice_counters.value + 1 returning value`,
      [businessId, series],
    );
    const n = Number(row!.value);
    return `${series}-${String(n).padStart(6, '0')}`;
  },
  async addPayment(businessId, invoiceId, p) {
    await db.execute('insert into invoice_payments (id, business_id, invoice_id, amount, method, paid_at, reference, created_by, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      p.id, businessId, invoiceId, p.amount, p.method, p.paidAt, p.reference, p.createdBy, p.createdAt,
    ]);
  },
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = [];
    if (filter.status) conditions.push({ sql: 'i.status = ?', params: [filter.status] });
    if (filter.type) conditions.push({ sql: 'i.type = ?', params: [filter.type] });
    if (filter.customerId) conditions.push({ sql: 'i.customer_id = ?', params: [filter.customerId] });
    if (filter.overdueOn) conditions.push({ sql: "i.status in ('SENT', 'PARTIALLY_PAID') and i.due_date < ?::date and i.total > i.amount_paid", params: [filter.overdueOn] });
    return keysetPage(db, INVOICES, businessId, page, conditions, (r) => fromRow(r));
  },
  async reminderCandidates(businessId, kind, dueDate, limit) {
    const rows = await db.execute<Row[]>(
      `select ${COLUMNS} from ${FROM}
       where i.business_id = ? and i.type <> 'PROFORMA' and i.status in ('SENT', 'PARTIALLY_PAID') and i.total > i.amount_paid and i.due_date = ?::date
         and not exists (select 1 from invoice_reminders m where m.business_id = i.business_id and m.invoice_id = i.id and m.kind = ?)
       order by i.created_at, i.id limit ?`,
      [businessId, dueDate, kind, limit],
    );
    return rows.map((r) => fromRow(r));
  },
  async claimReminder(businessId, invoiceId, kind, at) {
    const rows = await db.execute<Row[]>(
      'insert into invoice_reminders (business_id, invoice_id, kind, sent_at) values (?, ?, ?, ?) on conflict do nothing returning invoice_id',
      [businessId, invoiceId, kind, at],
    );
    return rows.length === 1;
  },
});

export const sqlInvoicesModule = (db: Sql): InvoiceRepositories => ({ invoices: sqlInvoices(db) });
