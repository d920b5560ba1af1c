import type { Sql } from './sql-session.js';
import type { LoanPack, LoanPackPayment, LoanPackRepositories, LoanPackRepository } from '../../../application/loan-packs/ports.js';
import type { LoanPackMonths, LoanPackStatus } from '../../../domain/loan-pack.js';
import { kobo } from '../../../domain/money.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource } from './keyset.sql.js';
import { firstRow, unlessDuplicate, type Row } from './sql-helpers.js';

const COLUMNS =
  'id, business_id, reference, status, months, period_start, period_end, price, currency, purpose, lender_name, document, sha256, created_by, created_at, paid_at, checkout_url, checkout_access_code';
const SELECT =
  'id, business_id, reference, status, months, period_start::text as period_start, period_end::text as period_end, price, currency, purpose, lender_name, ' +
  'document, sha256, created_by, created_at, paid_at, checkout_url, checkout_access_code';

const PACKS: KeysetSource<'created_at'> = {
  select: SELECT,
  from: 'loan_packs',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['reference', "coalesce(lender_name, '')", "coalesce(purpose, '')"],
  dateColumn: 'created_at',
};

const packFromRow = (r: Row): LoanPack => ({
  id: String(r.id),
  businessId: String(r.business_id),
  reference: String(r.reference),
  status: r.status as LoanPackStatus,
  months: Number(r.months) as LoanPackMonths,
  periodStart: String(r.period_start),
  periodEnd: String(r.period_end),
  price: kobo(Number(r.price)),
  currency: 'NGN',
  purpose: (r.purpose as string | null) ?? null,
  lenderName: (r.lender_name as string | null) ?? null,
  document: String(r.document),
  sha256: String(r.sha256),
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
  paidAt: asOptionalDate(r.paid_at),
  checkout: r.checkout_url === null ? null : { authorizationUrl: String(r.checkout_url), accessCode: String(r.checkout_access_code) },
});

const paymentFromRow = (r: Row): LoanPackPayment => ({
  id: String(r.id), businessId: String(r.business_id), reference: String(r.reference), gateway: String(r.gateway), amount: kobo(Number(r.amount)),
  currency: String(r.currency), paidAt: asDate(r.paid_at), recordedAt: asDate(r.recorded_at), source: r.source as LoanPackPayment['source'],
});

/** Loan packs over SQL. */
export const sqlLoanPacks = (db: Sql): LoanPackRepository => ({
  async add(p) {
    const values = [
      p.id, p.businessId, p.reference, p.status, p.months, p.periodStart, p.periodEnd, p.price, p.currency, p.purpose, p.lenderName, p.document, p.sha256,
      p.createdBy, p.createdAt, p.paidAt, p.checkout?.authorizationUrl ?? null, p.checkout?.accessCode ?? null,
    ];
    // loan_pack_references keeps a reference unique across businesses (docs/adr/0035)
    const sql = `with ref as (insert into loan_pack_references (reference) values (?)) insert into loan_packs (${COLUMNS}) values (${values.map(() => '?').join(', ')})`;
    const done = await unlessDuplicate(db, sql, [p.reference, ...values]);
    return done === 'done' ? 'added' : 'duplicate_reference';
  },
  findByReference: (businessId, reference) => firstRow(db, `select ${SELECT} from loan_packs where business_id = ? and reference = ?`, [businessId, reference], packFromRow),
  findAnyByReference: (reference) => firstRow(db, `select ${SELECT} from loan_packs where reference = ?`, [reference], packFromRow),
  list: (businessId, page) => keysetPage(db, PACKS, businessId, page, [], packFromRow),
  async saveCheckout(businessId, reference, checkout) {
    // The first checkout kept wins: a second one started at the same time reads it back.
    const [row] = await db.execute<Row[]>(
      `update loan_packs set checkout_url = coalesce(checkout_url, ?), checkout_access_code = coalesce(checkout_access_code, ?)
       where business_id = ? and reference = ? returning checkout_url, checkout_access_code`,
      [checkout.authorizationUrl, checkout.accessCode, businessId, reference],
    );
    return row ? { authorizationUrl: String(row.checkout_url), accessCode: String(row.checkout_access_code) } : checkout;
  },
  async markPaid(p) {
    // One statement: the conditional update takes the row lock, so of two racing calls the second
    // re-reads the row after the first commits, finds it READY, updates nothing and inserts nothing.
    const rows = await db.execute<Row[]>(
      `with paid as (
         update loan_packs set status = 'READY', paid_at = ?
         where business_id = ? and reference = ? and status = 'PENDING_PAYMENT' returning id, business_id
       )
       insert into loan_pack_payments (id, business_id, loan_pack_id, gateway, amount, currency, paid_at, recorded_at, source)
       select ?, paid.business_id, paid.id, ?, ?, ?, ?, ?, ? from paid returning id`,
      [p.paidAt, p.businessId, p.reference, p.id, p.gateway, p.amount, p.currency, p.paidAt, p.recordedAt, p.source],
    );
    return rows.length === 1 ? 'paid' : 'already';
  },
  paymentOf: (businessId, reference) =>
    firstRow(
      db,
      `select y.id, y.business_id, p.reference, y.gateway, y.amount, y.currency, y.paid_at, y.recorded_at, y.source
       from loan_pack_payments y join loan_packs p on p.business_id = y.business_id and p.id = y.loan_pack_id
       where y.business_id = ? and p.reference = ?`,
      [businessId, reference],
      paymentFromRow,
    ),
});

export const sqlLoanPacksModule = (db: Sql): LoanPackRepositories => ({ loanPacks: sqlLoanPacks(db) });
