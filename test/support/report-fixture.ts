import { expect } from 'chai';
import pg from 'pg';
import { aPhone, putOnPlan, registerOwner, type TestApp } from './test-app.js';

// A business whose every figure in the report exports is worked out by hand (test/http/report-exports.http.test.ts).

type Owner = Awaited<ReturnType<typeof registerOwner>>;

const ok = async (res: Promise<{ status: number; text: string; body: any }>, status = 201) => {
  const r = await res;
  expect(r.status, r.text).to.equal(status);
  return r.body.data;
};

/** Runs SQL on the app's database (the expenses module's routes are not in this branch: its rows go in directly). */
export const sql = async (app: TestApp, text: string, params: unknown[] = []) => {
  const client = new pg.Client({ connectionString: app.databaseUrl! });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
};

export interface ReportFixture {
  readonly owner: Owner;
  readonly staffToken: string;
  readonly businessId: string;
}

/**
 * Ada Stores (owner Ada Obi, cashier Bola Ade), November 2026, Lagos = UTC+1:
 * - S0 CASH 1,000.00 at 2026-10-31 22:59Z (Lagos 23:59 on 31 Oct: outside November)
 * - S1 CASH 2 x rice 1,000.00 less 150.00 = 1,850.00, paid, 2 Nov 09:00Z (Lagos 10:00)
 * - S2 TRANSFER oil 2,500.50, paid, 2 Nov 10:00Z, voided at 10:30Z
 * - S3 CREDIT 3 x rice = 3,000.00 to Chinedu Eze, 1,000.00 paid, 3 Nov 12:00Z; 2,000.00 collected by TRANSFER 4 Nov 08:00Z
 * - S4 CARD oil 2,500.50 by Bola Ade at 5 Nov 23:30Z = Lagos 6 Nov 00:30
 * - expenses: POS 300.00 on 4 Nov; CASH 500.00 on 6 Nov (recorded 5 Nov 23:30Z); CASH 999.00 on 4 Nov deleted
 */
export const seedReportFixture = async (app: TestApp): Promise<ReportFixture> => {
  const at = (iso: string) => app.clock.set(new Date(iso));
  at('2026-10-31T12:00:00.000Z'); // sessions last 30 days by this clock
  const owner = await registerOwner(app);
  await putOnPlan(app, owner, 'PRO');
  const token = owner.accessToken;
  const businessId = (await ok(app.request('GET', '/businesses/me', { token }), 200)).id as string;
  const phone = aPhone();
  await ok(app.request('POST', '/staff/invite', { token, body: { phone, first_name: 'Bola', last_name: 'Ade', role: 'STAFF' } }));
  await app.request('POST', '/auth/login', { body: { phone } });
  const staffToken = (await ok(app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } }), 200)).access_token as string;
  const rice = (await ok(app.request('POST', '/products', { token, body: { name: 'Rice 1kg', price: 1000, quantity: 100 } }))).id;
  const oil = (await ok(app.request('POST', '/products', { token, body: { name: 'Oil 1L', price: 2500.5, quantity: 100 } }))).id;
  const customer = (await ok(app.request('POST', '/customers', { token, body: { name: 'Chinedu Eze', phone: aPhone(), credit_limit: 10000 } }))).id;
  const sell = (body: Record<string, unknown>, as = token) => ok(app.request('POST', '/sales', { token: as, body }));

  at('2026-10-31T22:59:00.000Z');
  await sell({ items: [{ product_id: rice, quantity: 1 }], payment_method: 'CASH' });
  at('2026-11-02T09:00:00.000Z');
  await sell({ items: [{ product_id: rice, quantity: 2 }], payment_method: 'CASH', discount: 150 });
  at('2026-11-02T10:00:00.000Z');
  const s2 = await sell({ items: [{ product_id: oil, quantity: 1 }], payment_method: 'TRANSFER' });
  at('2026-11-02T10:30:00.000Z');
  await ok(app.request('POST', `/sales/${s2.id}/void`, { token, body: { reason: 'customer returned it' } }), 200);
  at('2026-11-03T12:00:00.000Z');
  await sell({ items: [{ product_id: rice, quantity: 3 }], payment_method: 'CREDIT', customer_id: customer, amount_paid: 1000 });
  at('2026-11-04T08:00:00.000Z');
  await ok(app.request('POST', `/customers/${customer}/credit/payment`, { token, body: { amount: 2000, payment_method: 'TRANSFER' } }));
  at('2026-11-05T23:30:00.000Z');
  await sell({ items: [{ product_id: oil, quantity: 1 }], payment_method: 'CARD' }, staffToken);

  // every business gets the default categories at registration
  const [{ id: categoryId }] = await sql(app, `select id from expense_categories where business_id = $1 and name = 'Rent'`, [businessId]);
  const [{ branch_id: branchId, user_id: userId }] = await sql(app, `select b.id as branch_id, m.user_id from branches b join memberships m on m.business_id = b.business_id and m.role = 'BUSINESS_OWNER' where b.business_id = $1`, [businessId]);
  const expense = (amount: number, method: string, spentOn: string, createdAt: string, deleted = false) =>
    sql(
      app,
      `insert into expenses (id, business_id, branch_id, category_id, amount, description, payment_method, spent_on, created_by, created_at, updated_at, deleted_at, deleted_by)
       values (gen_random_uuid(), $1, $2, $3, $4, 'expense', $5, $6, $7, $8, $8, $9, $10)`,
      [businessId, branchId, categoryId, amount, method, spentOn, userId, createdAt, deleted ? createdAt : null, deleted ? userId : null],
    );
  await expense(30000, 'POS', '2026-11-04', '2026-11-04T09:00:00.000Z');
  await expense(50000, 'CASH', '2026-11-06', '2026-11-05T23:30:00.000Z');
  await expense(99900, 'CASH', '2026-11-04', '2026-11-04T10:00:00.000Z', true);
  at('2026-11-24T12:00:00.000Z');
  return { owner, staffToken, businessId };
};

/** The sales export of 1-30 Nov 2026, by hand (CSV cells). */
// payments: the tenders (docs/adr/0055); the CREDIT sale's deposit is CASH
export const SALES_HEADER = ['receipt_number', 'date_time', 'cashier', 'customer', 'payment_method', 'status', 'subtotal', 'discount', 'total', 'amount_paid', 'balance_due', 'outstanding', 'returned', 'net_total', 'payments'];
export const SALES_ROWS = [
  ['RCP-000002', '2026-11-02 10:00', 'Ada Obi', '', 'CASH', 'COMPLETED', '2000.00', '150.00', '1850.00', '1850.00', '0.00', '0.00', '0.00', '1850.00', 'CASH 1850.00'],
  ['RCP-000003', '2026-11-02 11:00', 'Ada Obi', '', 'TRANSFER', 'VOIDED', '2500.50', '0.00', '2500.50', '2500.50', '0.00', '0.00', '0.00', '2500.50', 'TRANSFER 2500.50'],
  ['RCP-000004', '2026-11-03 13:00', 'Ada Obi', 'Chinedu Eze', 'CREDIT', 'COMPLETED', '3000.00', '0.00', '3000.00', '1000.00', '2000.00', '0.00', '0.00', '3000.00', 'CASH 1000.00 CREDIT 2000.00'],
  ['RCP-000005', '2026-11-06 00:30', 'Bola Ade', '', 'CARD', 'COMPLETED', '2500.50', '0.00', '2500.50', '2500.50', '0.00', '0.00', '0.00', '2500.50', 'CARD 2500.50'],
];

/** The cash flow of 1-6 Nov 2026, by hand (CSV cells). */
// in_pos: POS tenders and credit payments (docs/adr/0055); the CREDIT sale's deposit of 3 Nov is a CASH tender
export const CASH_FLOW_HEADER = ['date', 'sales_paid', 'credit_collected', 'invoices_paid', 'in_cash', 'in_transfer', 'in_card', 'in_pos', 'in_other', 'money_in', 'refunds', 'out_cash', 'out_transfer', 'out_card', 'out_pos', 'out_other', 'money_out', 'net', 'running_balance'];
const z = '0.00';
export const CASH_FLOW_ROWS = [
  ['2026-11-01', z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z],
  ['2026-11-02', '1850.00', z, z, '1850.00', z, z, z, z, '1850.00', z, z, z, z, z, z, z, '1850.00', '1850.00'],
  ['2026-11-03', '1000.00', z, z, '1000.00', z, z, z, z, '1000.00', z, z, z, z, z, z, z, '1000.00', '2850.00'],
  ['2026-11-04', z, '2000.00', z, z, '2000.00', z, z, z, '2000.00', z, z, z, z, '300.00', z, '300.00', '1700.00', '4550.00'],
  ['2026-11-05', z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, '4550.00'],
  ['2026-11-06', '2500.50', z, z, z, z, '2500.50', z, z, '2500.50', z, '500.00', z, z, z, z, '500.00', '2000.50', '6550.50'],
];
