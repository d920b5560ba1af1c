import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 18: a simulated till goes offline, queues its work and syncs it through retries and
// duplicates; the books end exactly as if every operation had been made online once (docs/adr/0034).

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Op = { op_id: string; type: string; payload: Record<string, unknown> };
type Result = { op_id: string; status: string; http_status: number; data?: any; error?: any };

/** The single endpoint each operation type is, for the online twin. */
const ENDPOINT: Record<string, (p: Record<string, unknown>) => [string, Record<string, unknown>]> = {
  'customer.create': (p) => ['/customers', p],
  'sale.create': (p) => ['/sales', p],
  'credit_payment.create': ({ customer_id, ...p }) => [`/customers/${String(customer_id)}/credit/payment`, p],
  'expense.create': (p) => ['/expenses', p],
};

describe('HTTP offline sync: a simulated device', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const post = (owner: Owner, path: string, body: object) => app.request('POST', path, { token: owner.accessToken, body });
  const get = async (owner: Owner, path: string) => (await app.request('GET', path, { token: owner.accessToken })).body.data;
  const batch = async (owner: Owner, operations: Op[]) => {
    const res = await post(owner, '/sync/batch', { device_id: 'till-1', operations });
    expect(res.status, res.text).to.equal(200);
    return res.body.data.results as Result[];
  };
  const all = async (owner: Owner, path: string) => {
    const out: any[] = [];
    let cursor: string | null = null;
    do {
      const page: { content: any[]; cursor: string | null } = await get(owner, `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      out.push(...page.content);
      cursor = page.cursor;
    } while (cursor);
    return out;
  };

  /** A shop with two products and its expense categories. */
  const shop = async () => {
    const owner = await registerOwner(app);
    const rice = (await post(owner, '/products', { name: 'Rice 5kg', price: 8500, quantity: 500 })).body.data.id as string;
    const oil = (await post(owner, '/products', { name: 'Palm oil 1L', price: 2200.5, quantity: 500 })).body.data.id as string;
    const categories = (await get(owner, '/expenses/categories')).content as { id: string }[];
    return { owner, rice, oil, category: categories[0]!.id };
  };
  type Shop = Awaited<ReturnType<typeof shop>>;

  /** The day's work of a till: 5 customers, 40 sales (some on credit), 3 payments, 2 expenses, in the order made (valid in that order). */
  const workOfTheDay = (s: Shop, saleCount = 40): Op[] => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 8, minute)).toISOString();
    const op = (type: string, payload: Record<string, unknown>): Op => ({ op_id: randomUUID(), type, payload });
    const customers = Array.from({ length: 5 }, (_, i) => op('customer.create', { id: randomUUID(), client_created_at: at(i), name: `Customer ${i + 1}` }));
    const sales = Array.from({ length: saleCount }, (_, i) => {
      const credit = i < 3 || i % 8 === 0; // the first three to the customers who pay later
      return op('sale.create', {
        id: randomUUID(),
        client_created_at: at(10 + i),
        provisional_receipt_number: `TILL1-${String(i + 1).padStart(6, '0')}`,
        payment_method: credit ? 'CREDIT' : i % 3 === 0 ? 'TRANSFER' : 'CASH',
        ...(credit ? { customer_id: customers[i < 3 ? i : (i / 8) % 5]!.payload.id } : {}),
        items: [{ product_id: i % 2 ? s.rice : s.oil, quantity: 1 + (i % 4) }, ...(i % 5 === 0 ? [{ product_id: s.rice, quantity: 1, discount: 100 }] : [])],
      });
    });
    const payments = [0, 1, 2].map((k) => op('credit_payment.create', { customer_id: customers[k]!.payload.id, id: randomUUID(), client_created_at: at(55 + k), amount: 1000 + k, payment_method: 'CASH' }));
    const expenses = [0, 1].map((k) => op('expense.create', { id: randomUUID(), client_created_at: at(58 + k), category_id: s.category, amount: 15000 + k, description: `Diesel ${k}`, payment_method: 'CASH' }));
    return [...customers, ...sales, ...payments, ...expenses];
  };

  /** The books as a client reads them: stock, sales, customers' balances, expenses, ledgers. */
  const books = async (s: Shop) => {
    const sales = await all(s.owner, '/sales?sort_dir=asc');
    const customers = await all(s.owner, '/customers?sort_by=name&sort_dir=asc');
    const expenses = await all(s.owner, '/expenses');
    const stock = async (id: string) => {
      const rows = (await all(s.owner, `/products/stock-adjustments?product_id=${id}`)) as { quantity_change: number }[];
      return { quantity: (await get(s.owner, `/products/${id}`)).quantity, ledger: rows.reduce((n, r) => n + r.quantity_change, 0), rows: rows.length };
    };
    return {
      sales: sales.length,
      total: sales.reduce((n: number, x: { total: number }) => Math.round((n + x.total) * 100) / 100, 0),
      paid: sales.reduce((n: number, x: { amount_paid: number }) => Math.round((n + x.amount_paid) * 100) / 100, 0),
      customers: customers.map((c: { name: string; credit_balance: number }) => [c.name, c.credit_balance]),
      expenses: expenses.map((e: { amount: number }) => e.amount).sort(),
      rice: await stock(s.rice),
      oil: await stock(s.oil),
    };
  };

  /** The same work made online once, through the single endpoints, in another shop (ids mapped to new ones). */
  const online = async (from: Shop, ops: Op[]) => {
    const twin = await shop();
    const ids = new Map<string, string>([[from.rice, twin.rice], [from.oil, twin.oil], [from.category, twin.category]]);
    const mapped = (v: unknown): unknown =>
      typeof v === 'string' && /^[0-9a-f-]{36}$/.test(v) ? (ids.get(v) ?? (ids.set(v, randomUUID()), ids.get(v))) : Array.isArray(v) ? v.map(mapped) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapped(x)])) : v;
    for (const o of ops) {
      const { provisional_receipt_number: _n, ...payload } = mapped(o.payload) as Record<string, unknown>;
      const [path, body] = ENDPOINT[o.type]!(payload);
      const res = await post(twin.owner, path, body);
      expect(res.status, res.text).to.equal(201);
    }
    return twin;
  };

  it('40 sales, 5 customers, 3 payments, 2 expenses in three batches, one sent twice and one cut in the middle: the books are as if made online once', async () => {
    const s = await shop();
    const ops = workOfTheDay(s);
    const [first, second, third] = [ops.slice(0, 20), ops.slice(20, 35), ops.slice(35)];

    expect((await batch(s.owner, first!)).map((r) => r.status)).to.deep.equal(first!.map(() => 'applied'));
    // the answer was lost: the till sends the first batch again
    const again = await batch(s.owner, first!);
    expect(again.map((r) => r.status)).to.deep.equal(first!.map(() => 'duplicate'));
    expect((await batch(s.owner, second!)).every((r) => r.status === 'applied')).to.equal(true);
    // the third is cut in the middle: the server applied its first half, the till saw nothing and retries it whole
    await batch(s.owner, third!.slice(0, 7));
    const retried = await batch(s.owner, third!);
    expect(retried.map((r) => r.status)).to.deep.equal([...third!.slice(0, 7).map(() => 'duplicate'), ...third!.slice(7).map(() => 'applied')]);

    const synced = await books(s);
    expect(synced.sales).to.equal(40);
    expect(synced.rice.quantity).to.equal(synced.rice.ledger); // the ledger sums to the stock (its INITIAL row included)
    expect(await books(await online(s, ops))).to.deep.equal(synced);
    // every provisional number finds its sale, and no sale needs review
    const sales = await all(s.owner, '/sales');
    expect(new Set(sales.map((x: { provisional_receipt_number: string }) => x.provisional_receipt_number)).size).to.equal(40);
    expect(sales.some((x: { needs_review: boolean }) => x.needs_review)).to.equal(false);
    expect((await get(s.owner, '/sales/receipts/TILL1-000017')).sale_id).to.equal(ops[5 + 16]!.payload.id);
  });

  it('property: random batches with duplicates and reorderings apply each operation once; the ledgers sum', async () => {
    await fc.assert(
      fc.asyncProperty(
        // sends: each a list of operation indexes (duplicates and any order), then the whole queue in order
        fc.array(fc.array(fc.nat(19), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        async (sends) => {
          const s = await shop();
          const ops = workOfTheDay(s, 10); // 5 customers, 10 sales, 3 payments, 2 expenses
          for (const send of sends) await batch(s.owner, send.map((i) => ops[i % ops.length]!));
          const last = await batch(s.owner, ops);
          expect(last.every((r) => r.status === 'applied' || r.status === 'duplicate'), JSON.stringify(last.filter((r) => r.status === 'rejected'))).to.equal(true);
          const b = await books(s);
          expect(b.sales).to.equal(ops.filter((o) => o.type === 'sale.create').length);
          expect(b.customers).to.have.length(5);
          expect(b.expenses).to.have.length(ops.filter((o) => o.type === 'expense.create').length);
          for (const p of [b.rice, b.oil]) expect(p.quantity).to.equal(p.ledger);
          // each customer's balance is the sum of their credit ledger, which holds each payment once
          let payments = 0;
          for (const c of await all(s.owner, '/customers')) {
            const entries = (await all(s.owner, `/customers/${c.id}/transactions`)) as { amount: number; type: string }[];
            expect(Math.round(entries.reduce((n, e) => n + (e.type === 'SALE' ? e.amount : -e.amount), 0) * 100) / 100).to.equal(c.credit_balance);
            payments += entries.filter((e) => e.type === 'PAYMENT').length;
          }
          expect(payments).to.equal(3);
        },
      ),
      { numRuns: 6 },
    );
  });
});
