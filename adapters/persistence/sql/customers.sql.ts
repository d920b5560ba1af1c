import type { Sql } from './sql-session.js';
import type { CustomerRepositories, CustomerRepository, CustomerSort } from '../../../application/customers/ports.js';
import type { Customer } from '../../../domain/customer.js';
import { kobo } from '../../../domain/money.js';
import { sqlCreditLedger } from './credit.sql.js';
import { asDate, keysetPage, type KeysetSource } from './keyset.sql.js';
import { optionalKobo, unlessDuplicate, type Row } from './sql-helpers.js';

const CUSTOMER_COLUMNS = 'id, business_id, name, phone, email, address, notes, credit_limit, credit_balance, notifications_opt_out, created_at, updated_at';

const CUSTOMERS: KeysetSource<CustomerSort> = {
  select: CUSTOMER_COLUMNS,
  from: 'customers',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: {
    created_at: { column: 'created_at', type: 'timestamptz' },
    name: { column: 'name', type: 'text' },
    credit_balance: { column: 'credit_balance', type: 'bigint' },
  },
  search: ["(name || ' ' || coalesce(phone, '') || ' ' || coalesce(email, ''))"],
  dateColumn: 'created_at',
};

const customerFromRow = (r: Row): Customer => ({
  id: String(r.id),
  businessId: String(r.business_id),
  name: String(r.name),
  phone: (r.phone as string | null) ?? null,
  email: (r.email as string | null) ?? null,
  address: (r.address as string | null) ?? null,
  notes: (r.notes as string | null) ?? null,
  creditLimit: optionalKobo(r.credit_limit),
  creditBalance: kobo(Number(r.credit_balance)),
  notificationsOptOut: r.notifications_opt_out === true,
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

/** Customers as plain rows; the balance moves only with the credit ledger (see credit.sql.ts). */
export const sqlCustomers = (db: Sql): CustomerRepository => ({
  async exists(businessId, id) {
    const rows = await db.execute<unknown[]>('select 1 from customers where business_id = ? and id = ?', [businessId, id]);
    return rows.length > 0;
  },
  async findById(businessId, id, options = {}) {
    const rows = await db.execute<Row[]>(
      `select ${CUSTOMER_COLUMNS} from customers where business_id = ? and id = ?${options.forUpdate ? ' for update' : ''}`,
      [businessId, id],
    );
    return rows[0] ? customerFromRow(rows[0]) : undefined;
  },
  list(businessId, page, filter) {
    return keysetPage(db, CUSTOMERS, businessId, page, filter.hasBalance ? [{ sql: 'credit_balance > 0', params: [] }] : [], customerFromRow);
  },
  async add(c) {
    const rows = await db.execute<unknown[]>(
      `insert into customers (${CUSTOMER_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (business_id, phone) where phone is not null do nothing returning id`,
      [c.id, c.businessId, c.name, c.phone, c.email, c.address, c.notes, c.creditLimit, c.creditBalance, c.notificationsOptOut, c.createdAt, c.updatedAt],
    );
    return rows.length === 1 ? 'added' : 'duplicate_phone';
  },
  async save(c) {
    const saved = await unlessDuplicate(
      db,
      'update customers set name = ?, phone = ?, email = ?, address = ?, notes = ?, credit_limit = ?, notifications_opt_out = ?, updated_at = ? where business_id = ? and id = ?',
      [c.name, c.phone, c.email, c.address, c.notes, c.creditLimit, c.notificationsOptOut, c.updatedAt, c.businessId, c.id],
    );
    return saved === 'done' ? 'saved' : 'duplicate_phone';
  },
  async totalOwedExceeds(businessId, limit) {
    // sum() of bigint is numeric in PostgreSQL: it cannot overflow, and the comparison is exact; a credit
    // note (a balance below zero, docs/adr/0059) is not subtracted from what others owe
    const rows = await db.execute<{ over: boolean }[]>('select coalesce(sum(greatest(credit_balance, 0)), 0) > ?::numeric as over from customers where business_id = ?', [
      String(limit),
      businessId,
    ]);
    return rows[0]!.over === true;
  },
  async setBalance(businessId, id, balance, at) {
    await db.execute('update customers set credit_balance = ?, updated_at = ? where business_id = ? and id = ?', [balance, at, businessId, id]);
  },
});

/** The customers module over one transaction's Sql: customers and the credit ledger. */
export const sqlCustomersModule = (db: Sql): CustomerRepositories => ({ customers: sqlCustomers(db), credit: sqlCreditLedger(db) });
