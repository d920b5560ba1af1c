import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { PDFParse } from 'pdf-parse';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 11, "Missing pieces a client developer expected": cash tendered and change, line discounts,
// receipts naming their customer, voided balances, product archive, CSV blank cells, path aliases,
// plan usage (docs/adr/0015).

type Owner = Awaited<ReturnType<typeof registerOwner>>;

describe('HTTP what a client developer expected (issue 11)', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const aProduct = async (owner: Owner, body: Record<string, unknown>) => {
    const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk 400g', price: 1500, quantity: 100, ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; sku: string; name: string };
  };
  const aCustomer = async (owner: Owner, name = 'Chinedu Eze') => {
    const res = await app.request('POST', '/customers', { token: owner.accessToken, body: { name, phone: aPhone() } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; name: string; phone: string };
  };
  const sell = (owner: Owner, body: Record<string, unknown>) => app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', ...body } });
  const get = (owner: Owner, path: string) => app.request('GET', path, { token: owner.accessToken });
  const expectProblem = (res: { status: number; body: any; text: string }, status: number, code: string) => {
    expect(res.status, res.text).to.equal(status);
    expect(res.body.error.code).to.equal(code);
    return res.body.error;
  };
  const pdfText = async (owner: Owner, path: string) => {
    const res = await fetch(`${app.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${owner.accessToken}`, accept: 'application/pdf' } });
    expect(res.status).to.equal(200);
    const parser = new PDFParse({ data: new Uint8Array(await res.arrayBuffer()) });
    try {
      return (await parser.getText()).text;
    } finally {
      await parser.destroy();
    }
  };

  describe('sales: cash tendered and change, line discounts, voids', () => {
    let owner: Owner;
    let milk: { id: string };
    before(async () => {
      owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      milk = await aProduct(owner, {});
    });

    it('records the cash handed over and the change instead of refusing it; the receipt shows both', async () => {
      // 3 x 1,500 - 500 line discount - 100 sale discount = 3,900; 5,000 handed over
      const res = await sell(owner, { items: [{ product_id: milk.id, quantity: 3, discount: 500 }], discount: 100, amount_tendered: 5000 });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({
        subtotal: 4000,
        discount: 100,
        line_discount_total: 500,
        total: 3900,
        amount_paid: 3900,
        amount_tendered: 5000,
        change_due: 1100,
        balance_due: 0,
      });
      const sale = res.body.data;
      expect((await get(owner, `/sales/${sale.id}`)).body.data).to.include({ amount_tendered: 5000, change_due: 1100, line_discount_total: 500 });
      const listed = (await get(owner, '/sales?limit=100')).body.data.content.find((s: { id: string }) => s.id === sale.id);
      expect(listed).to.include({ amount_tendered: 5000, change_due: 1100, line_discount_total: 500 });
      const receipt = (await get(owner, `/sales/${sale.id}/receipt`)).body.data;
      expect(receipt).to.include({ amount_paid: 3900, amount_tendered: 5000, change_due: 1100, line_discount_total: 500, discount: 100, customer: null });
      const text = await pdfText(owner, `/sales/${sale.id}/receipt`);
      expect(text).to.match(/Tendered\s+₦5,000\.00/);
      expect(text).to.match(/Change\s+₦1,100\.00/);
      expect(text).not.to.contain('Customer');
    });

    it('without amount_tendered nothing is recorded (null); amount_paid above the total is still 422 and names amount_tendered', async () => {
      const plain = await sell(owner, { items: [{ product_id: milk.id, quantity: 1 }] });
      expect(plain.body.data).to.include({ amount_paid: 1500, amount_tendered: null, change_due: null, line_discount_total: 0 });

      const over = await sell(owner, { items: [{ product_id: milk.id, quantity: 1 }], amount_paid: 2000 });
      const error = expectProblem(over, 422, 'AMOUNT_PAID_EXCEEDS_TOTAL');
      expect(error.detail).to.contain('amount_tendered');

      // both sent: change is tendered - paid
      const both = await sell(owner, { items: [{ product_id: milk.id, quantity: 2 }], amount_paid: 3000, amount_tendered: 3500 });
      expect(both.body.data).to.include({ amount_paid: 3000, amount_tendered: 3500, change_due: 500 });
      // a transfer can be tendered too (the customer sent more; the change is given in cash)
      const transfer = await sell(owner, { items: [{ product_id: milk.id, quantity: 1 }], payment_method: 'TRANSFER', amount_tendered: 2000 });
      expect(transfer.body.data).to.include({ amount_paid: 1500, change_due: 500 });
    });

    it('tendering less than what is paid is 422 AMOUNT_TENDERED_TOO_SMALL; less than the total pays that much with a customer (a credit sale), else is too small too', async () => {
      const tooSmall = await sell(owner, { items: [{ product_id: milk.id, quantity: 2 }], amount_paid: 3000, amount_tendered: 2999.99 });
      const error = expectProblem(tooSmall, 422, 'AMOUNT_TENDERED_TOO_SMALL');
      expect(error.errors).to.deep.equal([{ field: 'amount_tendered', message: 'is less than amount_paid' }]);

      // 2,000 handed over for 3,000 with no customer to owe the rest: a typo, the tender is too small (ADR 0046)
      const short = expectProblem(await sell(owner, { items: [{ product_id: milk.id, quantity: 2 }], amount_tendered: 2000 }), 422, 'AMOUNT_TENDERED_TOO_SMALL');
      expect(short.errors).to.deep.equal([{ field: 'amount_tendered', message: 'is less than the total' }]);
      // with a customer: 2,000 paid, 1,000 owed
      const customer = await aCustomer(owner);
      const part = await sell(owner, { items: [{ product_id: milk.id, quantity: 2 }], amount_tendered: 2000, customer_id: customer.id });
      expect(part.body.data).to.include({ amount_paid: 2000, amount_tendered: 2000, change_due: 0, balance_due: 1000, credit_outstanding: 1000 });

      expectProblem(await sell(owner, { items: [{ product_id: milk.id, quantity: 1 }], amount_tendered: -1 }), 422, 'AMOUNT_MUST_NOT_BE_NEGATIVE');
      expectProblem(await sell(owner, { items: [{ product_id: milk.id, quantity: 1 }], amount_tendered: 1.005 }), 400, 'VALIDATION_FAILED');
    });

    it('a receipt names its customer (JSON and PDF)', async () => {
      const customer = await aCustomer(owner, 'Ngozi Adeyemi');
      const sale = (await sell(owner, { items: [{ product_id: milk.id, quantity: 1 }], customer_id: customer.id })).body.data;
      const receipt = (await get(owner, `/sales/receipts/${sale.receipt_number}`)).body.data;
      expect(receipt.customer).to.deep.equal({ name: 'Ngozi Adeyemi', phone: customer.phone });
      const text = await pdfText(owner, `/sales/${sale.id}/receipt`);
      expect(text).to.contain('Customer');
      expect(text).to.contain('Ngozi Adeyemi');
    });

    it("a voided sale's balance_due is 0 and refund_amount is what the customer paid for it", async () => {
      const customer = await aCustomer(owner);
      // 3,000 of which 1,200 paid at the till and 300 later: 1,500 still owed when voided
      const sale = (await sell(owner, { items: [{ product_id: milk.id, quantity: 2 }], amount_paid: 1200, customer_id: customer.id })).body.data;
      expect(sale).to.include({ balance_due: 1800, refund_amount: null });
      const paid = await app.request('POST', `/customers/${customer.id}/credit/payment`, { token: owner.accessToken, body: { amount: 300, payment_method: 'CASH' } });
      expect(paid.status, paid.text).to.equal(201);
      const voided = await app.request('POST', `/sales/${sale.id}/void`, { token: owner.accessToken, body: { reason: 'returned' } });
      expect(voided.status, voided.text).to.equal(200);
      expect(voided.body.data).to.include({ status: 'VOIDED', balance_due: 0, credit_outstanding: 0, refund_amount: 1500, amount_paid: 1200 });
      expect((await get(owner, `/sales/${sale.id}`)).body.data).to.include({ balance_due: 0, refund_amount: 1500 });
      const receipt = (await get(owner, `/sales/${sale.id}/receipt`)).body.data;
      expect(receipt).to.include({ status: 'VOIDED', balance_due: 0, refund_amount: 1500 });
      expect(await pdfText(owner, `/sales/${sale.id}/receipt`)).to.match(/Refunded\s+₦1,500\.00/);
      expect((await get(owner, `/customers/${customer.id}/credit`)).body.data.balance).to.equal(0);
    });
  });

  describe('products: archive and restore', () => {
    let owner: Owner;
    before(async () => {
      owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
    });
    const listIds = async (query = '') => ((await get(owner, `/products?limit=100${query}`)).body.data.content as { id: string }[]).map((p) => p.id);

    it('DELETE hides it from lists, categories, the export and sales, keeps its history; restore brings it back', async () => {
      const kept = await aProduct(owner, { name: 'Garri 1kg', category: 'Grains', sku: 'GARRI' });
      const gone = await aProduct(owner, { name: 'Old Milk', category: 'Dairy', sku: 'OLD-MILK' });
      const sold = (await sell(owner, { items: [{ product_id: gone.id, quantity: 2 }] })).body.data;

      const archived = await app.request('DELETE', `/products/${gone.id}`, { token: owner.accessToken });
      expect(archived.status, archived.text).to.equal(200);
      expect(archived.body.data.archived_at).to.equal(app.clock.now().toISOString());
      // archiving again changes nothing
      const again = await app.request('DELETE', `/products/${gone.id}`, { token: owner.accessToken });
      expect(again.body.data.archived_at).to.equal(archived.body.data.archived_at);

      expect(await listIds()).to.deep.equal([kept.id]);
      expect(await listIds('&search=milk')).to.deep.equal([]);
      expect(await listIds('&archived=true')).to.deep.equal([gone.id]);
      expect((await get(owner, '/products/categories')).body.data.content.map((c: { name: string }) => c.name)).to.deep.equal(['Grains']);
      const exported = await fetch(`${app.baseUrl}/api/v1/products/export`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
      expect((parse(await exported.text(), { bom: true }) as string[][]).map((r) => r[0])).to.deep.equal(['sku', 'GARRI']);

      // still readable by id, and its history still names it
      expect((await get(owner, `/products/${gone.id}`)).body.data).to.include({ name: 'Old Milk', archived_at: archived.body.data.archived_at });
      expect((await get(owner, `/sales/${sold.id}`)).body.data.items[0]).to.include({ product_id: gone.id, name: 'Old Milk' });
      expect((await get(owner, `/sales/${sold.id}/receipt`)).body.data.lines[0]).to.include({ name: 'Old Milk', sku: 'OLD-MILK' });

      // no longer sold; the whole sale is refused, naming the line
      const refused = await sell(owner, { items: [{ product_id: kept.id, quantity: 1 }, { product_id: gone.id, quantity: 1 }] });
      const error = expectProblem(refused, 422, 'PRODUCT_ARCHIVED');
      expect(error.errors).to.deep.equal([{ field: 'items.1.product_id', message: 'is an archived product' }]);
      expect((await get(owner, `/products/${kept.id}`)).body.data.quantity).to.equal(100);
      // a void of an old sale still gives its stock back
      expect((await app.request('POST', `/sales/${sold.id}/void`, { token: owner.accessToken, body: { reason: 'x' } })).status).to.equal(200);
      expect((await get(owner, `/products/${gone.id}`)).body.data.quantity).to.equal(100);

      // its sku stays taken
      expectProblem(await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'New Milk', price: 1, sku: 'old-milk' } }), 409, 'DUPLICATE_SKU');

      const restored = await app.request('POST', `/products/${gone.id}/restore`, { token: owner.accessToken });
      expect(restored.status, restored.text).to.equal(200);
      expect(restored.body.data.archived_at).to.equal(null);
      expect((await listIds()).sort()).to.deep.equal([kept.id, gone.id].sort());
      expect((await sell(owner, { items: [{ product_id: gone.id, quantity: 1 }] })).status).to.equal(201);
      expect((await app.request('POST', `/products/${gone.id}/restore`, { token: owner.accessToken })).status).to.equal(200);
    });

    it('an unknown or foreign product is 404 on archive and restore', async () => {
      const other = await registerOwner(app);
      const theirs = await aProduct(other, {});
      expectProblem(await app.request('DELETE', `/products/${theirs.id}`, { token: owner.accessToken }), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await app.request('POST', `/products/${theirs.id}/restore`, { token: owner.accessToken }), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await app.request('DELETE', '/products/not-a-uuid', { token: owner.accessToken }), 404, 'RESOURCE_NOT_FOUND');
      expect((await get(other, `/products/${theirs.id}`)).body.data.archived_at).to.equal(null);
    });
  });

  describe('CSV import: a blank cell leaves the field, "-" clears it', () => {
    it('blank keeps, - clears an optional field, - on a required field is a row error, \'- is the text "-"', async () => {
      const owner = await registerOwner(app);
      await aProduct(owner, { name: 'Rice 5kg', sku: 'RICE', price: 9500, cost_price: 8000, category: 'Grains', barcode: '123', unit: 'bag', low_stock_threshold: 5 });
      const importCsv = (body: string) => app.request('POST', '/products/import', { token: owner.accessToken, rawBody: body, headers: { 'content-type': 'text/csv' } });

      // a price list with only the price filled in: every blank cell leaves its field as it is
      const priced = await importCsv('sku,name,price,cost_price,quantity,category,type,low_stock_threshold,barcode,unit\r\nRICE,,9900,,,,,,,\r\n');
      expect(priced.body.data).to.include({ updated: 1, created: 0 });
      expect(priced.body.data.errors).to.deep.equal([]);
      const after = (await get(owner, '/products?search=RICE')).body.data.content[0];
      expect(after).to.include({ name: 'Rice 5kg', price: 9900, cost_price: 8000, quantity: 100, category: 'Grains', barcode: '123', unit: 'bag', low_stock_threshold: 5 });

      const cleared = await importCsv("sku,cost_price,category,low_stock_threshold,barcode,unit\r\nRICE,-,-,-,-,'-\r\n");
      expect(cleared.body.data.errors).to.deep.equal([]);
      expect((await get(owner, '/products?search=RICE')).body.data.content[0]).to.include({
        cost_price: null,
        category: null,
        low_stock_threshold: null,
        barcode: null,
        unit: '-',
        name: 'Rice 5kg',
      });

      const refused = await importCsv('sku,name,price\r\nRICE,-,-\r\n');
      expect(refused.body.data).to.include({ updated: 0 });
      expect(refused.body.data.errors.map((e: { row: number; field: string }) => [e.row, e.field])).to.deep.equal([
        [2, 'name'],
        [2, 'price'],
      ]);
      expect(refused.body.data.errors[0].message).to.contain('cannot be cleared');
    });
  });

  describe('paths: GET /staff and GET /businesses/me/branches', () => {
    it('answer the same lists as GET /businesses/staff and GET /businesses/{id}/branches', async () => {
      const owner = await registerOwner(app);
      const businessId = (await get(owner, '/businesses/me')).body.data.id as string;
      const invited = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone: aPhone(), first_name: 'Bola', last_name: 'Ade' } });
      expect(invited.status, invited.text).to.equal(201);
      const branch = await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Ikeja' } });
      expect(branch.status, branch.text).to.equal(201);

      const staff = await get(owner, '/staff?sort_by=first_name&sort_dir=asc');
      expect(staff.status, staff.text).to.equal(200);
      expect(staff.body.data.content).to.have.length(2);
      expect(staff.body.data.content).to.deep.equal((await get(owner, '/businesses/staff?sort_by=first_name&sort_dir=asc')).body.data.content);
      expect((await get(owner, '/staff?status=INVITED')).body.data.content.map((m: { first_name: string }) => m.first_name)).to.deep.equal(['Bola']);
      // one list under two paths: a cursor of one pages the other
      const firstPage = (await get(owner, '/staff?sort_by=first_name&sort_dir=asc&limit=1')).body.data;
      const secondPage = await get(owner, `/businesses/staff?sort_by=first_name&sort_dir=asc&limit=1&cursor=${firstPage.cursor}`);
      expect(secondPage.status, secondPage.text).to.equal(200);
      expect([...firstPage.content, ...secondPage.body.data.content]).to.deep.equal(staff.body.data.content);

      const mine = await get(owner, '/businesses/me/branches?sort_by=name');
      expect(mine.status, mine.text).to.equal(200);
      expect(mine.body.data.content.map((b: { name: string }) => b.name)).to.include('Ikeja');
      expect(mine.body.data.content).to.deep.equal((await get(owner, `/businesses/${businessId}/branches?sort_by=name`)).body.data.content);
    });
  });

  describe('plan usage', () => {
    const setMonthCount = async (owner: Owner, count: number) => {
      const businessId = (await get(owner, '/businesses/me')).body.data.id as string;
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: app.databaseUrl! });
      await client.connect();
      try {
        // stands in for `count` sales recorded earlier this month
        await client.query('update monthly_sale_counts set count = $1 where business_id = $2', [count, businessId]);
      } finally {
        await client.end();
      }
    };

    it('on FREE: POST /sales answers Plan-Sales-Limit/Remaining; /businesses/me carries the Lagos month usage; the 51st is 402', async () => {
      app.clock.set(new Date('2026-11-30T23:30:00.000Z')); // 00:30 on 1 December in Lagos
      const owner = await registerOwner(app);
      const product = await aProduct(owner, {});
      const before = (await get(owner, '/businesses/me')).body.data;
      expect(before.plan).to.equal('FREE');
      expect(before.plan_usage).to.deep.equal({
        plan_limits: { monthly_sales: 50 },
        sales_this_month: 0,
        sales_limit: 50,
        sales_remaining: 50,
        period_start: '2026-11-30T23:00:00.000Z',
        period_end: '2026-12-31T23:00:00.000Z',
      });

      const first = await sell(owner, { items: [{ product_id: product.id, quantity: 1 }] });
      expect(first.status, first.text).to.equal(201);
      expect(first.headers.get('plan-sales-limit')).to.equal('50');
      expect(first.headers.get('plan-sales-remaining')).to.equal('49');
      expect((await get(owner, '/businesses/me')).body.data.plan_usage).to.include({ sales_this_month: 1, sales_remaining: 49 });

      await setMonthCount(owner, 44);
      const at45 = await sell(owner, { items: [{ product_id: product.id, quantity: 1 }] });
      expect(at45.headers.get('plan-sales-remaining')).to.equal('5'); // the app warns here
      expect((await get(owner, `/businesses/${(await get(owner, '/businesses/me')).body.data.id}`)).body.data.plan_usage).to.include({ sales_this_month: 45, sales_remaining: 5 });

      await setMonthCount(owner, 49);
      const last = await sell(owner, { items: [{ product_id: product.id, quantity: 1 }] });
      expect(last.status).to.equal(201);
      expect(last.headers.get('plan-sales-remaining')).to.equal('0');
      const refused = await sell(owner, { items: [{ product_id: product.id, quantity: 1 }] });
      expectProblem(refused, 402, 'PLAN_LIMIT_EXCEEDED');
      expect(refused.headers.get('plan-sales-limit')).to.equal('50');
      expect(refused.headers.get('plan-sales-remaining')).to.equal('0');
      expect((await get(owner, '/businesses/me')).body.data.plan_usage).to.include({ sales_this_month: 50, sales_remaining: 0 });

      // the next Lagos month starts afresh
      app.clock.set(new Date('2026-12-31T23:00:00.000Z'));
      const next = (await get(owner, '/businesses/me')).body.data.plan_usage;
      expect(next).to.include({ sales_this_month: 0, sales_remaining: 50, period_start: '2026-12-31T23:00:00.000Z', period_end: '2027-01-31T23:00:00.000Z' });
    });

    it('on a plan without a cap: no Plan-Sales headers; usage counts the month with null limits', async () => {
      app.clock.set(new Date('2026-11-20T10:00:00.000Z'));
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'STARTER');
      const product = await aProduct(owner, {});
      const sale = await sell(owner, { items: [{ product_id: product.id, quantity: 1 }] });
      expect(sale.status).to.equal(201);
      expect(sale.headers.get('plan-sales-limit')).to.equal(null);
      expect(sale.headers.get('plan-sales-remaining')).to.equal(null);
      await sell(owner, { items: [{ product_id: product.id, quantity: 1 }] });
      expect((await get(owner, '/businesses/me')).body.data.plan_usage).to.deep.equal({
        plan_limits: { monthly_sales: null },
        sales_this_month: 2,
        sales_limit: null,
        sales_remaining: null,
        period_start: '2026-10-31T23:00:00.000Z',
        period_end: '2026-11-30T23:00:00.000Z',
      });
    });

    it('the document declares the headers, plan_usage, the new codes and a request example', () => {
      const doc = app.openApi as any;
      const recordSale = doc.paths['/sales'].post;
      expect(recordSale.responses['201'].headers).to.have.keys(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Idempotent-Replayed', 'Plan-Sales-Limit', 'Plan-Sales-Remaining']);
      expect(recordSale.responses['422'].description).to.contain('AMOUNT_TENDERED_TOO_SMALL').and.to.contain('PRODUCT_ARCHIVED');
      expect(recordSale.requestBody.content['application/json'].example).to.include({ payment_method: 'CASH', amount_tendered: 5000 });
      const business = doc.paths['/businesses/me'].get.responses['200'].content['application/json'].schema.properties.data;
      expect(business).to.deep.equal({ $ref: '#/components/schemas/BusinessWithPlanUsage' });
      expect(doc.components.schemas.BusinessWithPlanUsage.required).to.include('plan_usage');
      expect(doc.components.schemas.PlanUsage.required).to.include.members(['sales_this_month', 'sales_limit', 'sales_remaining', 'period_start', 'period_end']);
      expect(doc.paths['/products/{id}'].delete.description).to.contain('PRODUCT_ARCHIVED');
      expect(doc.paths['/products/{id}/restore'].post.operationId).to.equal('restoreProduct');
      expect(doc.paths['/staff'].get.description).to.contain('Owner only');
      expect(doc.paths['/businesses/me/branches'].get.description).to.contain('Owner only');
    });
  });
});
