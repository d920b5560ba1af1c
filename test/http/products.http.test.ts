import { expect } from 'chai';
import fc from 'fast-check';
import { MAX_KOBO } from '../../domain/money.js';
import { money } from '../../adapters/http/codecs.js';
import { aPhone, createTestApp, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

// Products, the stock ledger and stock adjustments through the real app (API-DECISIONS "Wire format",
// "Errors", "Idempotency", "Roles"). Runs on whatever database the test run uses: PGlite serialises
// transactions, a real PostgreSQL runs the concurrent requests at once; both must give the same answers.

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Json = Record<string, any>;

const HOUR_MS = 3_600_000;

describe('HTTP products and stock', function () {
  this.timeout(120_000);
  let app: TestApp;
  let owner: Owner;
  let rival: Owner;

  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    rival = await registerOwner(app);
  });
  after(async () => app.close());

  const businessIdOf = async (o: Owner) => (await app.request('GET', '/businesses/me', { token: o.accessToken })).body.data.id as string;

  const post = (body: unknown, token = owner.accessToken) => app.request('POST', '/products', { token, body });
  const put = (id: string, body: unknown, token = owner.accessToken) => app.request('PUT', `/products/${id}`, { token, body });
  const get = (id: string, token = owner.accessToken) => app.request('GET', `/products/${id}`, { token });
  const adjust = (body: unknown, o: { token?: string; key?: string } = {}) =>
    app.request('POST', '/products/stock-adjustment', { token: o.token ?? owner.accessToken, body, ...(o.key !== undefined ? { headers: { 'idempotency-key': o.key } } : {}) });

  /** Creates a product (201 expected) and returns its JSON. */
  const create = async (body: Json, token = owner.accessToken): Promise<Json> => {
    const res = await post(body, token);
    expect(res.status, res.text).to.equal(201);
    app.clock.advance(1); // the opening ledger row sorts before whatever the test does next
    return res.body.data;
  };
  const quantityOf = async (id: string, token = owner.accessToken) => {
    const res = await get(id, token);
    expect(res.status, res.text).to.equal(200);
    return res.body.data.quantity as number;
  };

  /** Every ledger row of the query, following the cursor, oldest first. */
  const ledger = async (query: string, token = owner.accessToken): Promise<Json[]> => {
    const rows: Json[] = [];
    let cursor: string | null = null;
    do {
      const res: TestResponse = await app.request('GET', `/products/stock-adjustments?sort_dir=asc&limit=100&${query}${cursor ? `&cursor=${cursor}` : ''}`, { token });
      expect(res.status, res.text).to.equal(200);
      rows.push(...res.body.data.content);
      cursor = res.body.data.cursor;
    } while (cursor);
    return rows;
  };
  const ledgerOf = (productId: string, token = owner.accessToken) => ledger(`product_id=${productId}`, token);
  const sumOf = (rows: Json[]) => rows.reduce((s, r) => s + (r.quantity_change as number), 0);

  /** Every product of the listing query, following the cursor. */
  const listAll = async (query: string, token = owner.accessToken): Promise<Json[]> => {
    const items: Json[] = [];
    let cursor: string | null = null;
    do {
      const res: TestResponse = await app.request('GET', `/products?limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`, { token });
      expect(res.status, res.text).to.equal(200);
      items.push(...res.body.data.content);
      cursor = res.body.data.cursor;
    } while (cursor);
    return items;
  };

  const expectProblem = (res: TestResponse, status: number, code: string, field?: string) => {
    expect(res.status, res.text).to.equal(status);
    expect(res.body.success).to.equal(false);
    expect(res.body.error.code, res.text).to.equal(code);
    if (field) expect(res.body.error.errors.map((e: { field: string }) => e.field), res.text).to.include(field);
  };

  describe('create', () => {
    it('with name and price only: generated sku, quantity 0, type PRODUCT, nulls elsewhere, no ledger row', async () => {
      const p = await create({ name: 'Rice 5kg', price: 9500 });
      expect(p).to.include({
        name: 'Rice 5kg',
        price: 9500,
        cost_price: null,
        quantity: 0,
        category: null,
        type: 'PRODUCT',
        low_stock_threshold: null,
        is_low_stock: false,
        barcode: null,
        unit: null,
        business_id: await businessIdOf(owner),
      });
      expect(p.sku).to.match(/^RICE-[0-9A-F]{8}$/);
      expect(p.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(p.updated_at).to.equal(p.created_at);
      expect((await get(p.id)).body.data).to.deep.equal(p);
      expect(await ledgerOf(p.id)).to.deep.equal([]);
      const twin = await create({ name: 'Rice 5kg', price: 9500 });
      expect(twin.sku).to.not.equal(p.sku);
      expect((await create({ name: '#$%', price: 1 })).sku).to.match(/^ITEM-[0-9A-F]{8}$/);
    });

    it('with every field: stored as sent, the opening quantity is the first ledger row (INITIAL)', async () => {
      const p = await create({
        name: 'Indomie Chicken 70g',
        sku: '  IND-CHK-70 ',
        price: 1500.5,
        cost_price: 1200.25,
        quantity: 12,
        category: 'Noodles',
        type: 'PRODUCT',
        low_stock_threshold: 12,
        barcode: '6154000012345',
        unit: 'carton',
      });
      expect(p).to.include({
        name: 'Indomie Chicken 70g',
        sku: 'IND-CHK-70',
        price: 1500.5,
        cost_price: 1200.25,
        quantity: 12,
        category: 'Noodles',
        type: 'PRODUCT',
        low_stock_threshold: 12,
        is_low_stock: true,
        barcode: '6154000012345',
        unit: 'carton',
      });
      const rows = await ledgerOf(p.id);
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ product_id: p.id, quantity_change: 12, quantity_before: 0, quantity_after: 12, reason: 'INITIAL', unit_cost: 1200.25, created_by: owner.userId });
      expect((await ledger('reason=INITIAL')).map((r) => r.id)).to.include(rows[0]!.id);
    });

    it('requires name and price; refuses unknown and read-only fields by name (400)', async () => {
      expectProblem(await post({ price: 100 }), 400, 'VALIDATION_FAILED', 'name');
      expectProblem(await post({ name: 'Beans' }), 400, 'VALIDATION_FAILED', 'price');
      expectProblem(await post({ name: '   ', price: 1 }), 400, 'VALIDATION_FAILED', 'name');
      expectProblem(await post({ name: 'Beans', price: 1, stock: 4 }), 400, 'VALIDATION_FAILED', 'stock');
      for (const field of ['id', 'business_id', 'is_low_stock', 'created_at', 'updated_at']) {
        expectProblem(await post({ name: 'Beans', price: 1, [field]: 'x' }), 400, 'VALIDATION_FAILED', field);
      }
      expectProblem(await post({ name: 'Beans', price: 1, type: 'GOODS' }), 400, 'VALIDATION_FAILED', 'type');
      expectProblem(await post({ name: 'Beans', price: 1, quantity: 1.5 }), 400, 'VALIDATION_FAILED', 'quantity');
      expectProblem(await post({ name: 'Beans', price: 1, quantity: '3' }), 400, 'VALIDATION_FAILED', 'quantity');
      expectProblem(await post({ name: 'Beans', price: 1, quantity: -1 }), 422, 'QUANTITY_MUST_NOT_BE_NEGATIVE', 'quantity');
      expectProblem(await post({ name: 'Beans', price: 1, low_stock_threshold: -1 }), 422, 'QUANTITY_MUST_NOT_BE_NEGATIVE', 'low_stock_threshold');
    });

    it('a service keeps no stock: created with quantity 0; with a quantity 422; never adjusted (422)', async () => {
      const s = await create({ name: 'Haircut', price: 2000, type: 'SERVICE' });
      expect(s).to.include({ type: 'SERVICE', quantity: 0, is_low_stock: false });
      expectProblem(await post({ name: 'Barbing', price: 2000, type: 'SERVICE', quantity: 3 }), 422, 'SERVICE_HAS_NO_STOCK', 'quantity');
      expect((await create({ name: 'Braids', price: 2000, type: 'SERVICE', quantity: 0 })).quantity).to.equal(0);
      expectProblem(await adjust({ product_id: s.id, quantity_change: 5, reason: 'RESTOCK' }), 422, 'SERVICE_HAS_NO_STOCK');
      expect(await quantityOf(s.id)).to.equal(0);
      expect(await ledgerOf(s.id)).to.deep.equal([]);
    });

    it('a sku is unique per business ignoring case: 409 DUPLICATE_SKU; another business may use it', async () => {
      const first = await create({ name: 'Peak Milk', price: 700, sku: 'PEAK-400G' });
      const dup = await post({ name: 'Peak Milk tin', price: 750, sku: 'peak-400g', quantity: 5 });
      expectProblem(dup, 409, 'DUPLICATE_SKU', 'sku');
      expect((await listAll('search=peak-400g')).map((p) => p.id)).to.deep.equal([first.id]);
      expect((await create({ name: 'Peak Milk', price: 800, sku: 'Peak-400G' }, rival.accessToken)).sku).to.equal('Peak-400G');
    });
  });

  describe('money (naira with at most 2 decimals on the wire, kobo inside)', () => {
    it('reads back exactly what was sent: 1500.5, 0.1, 0.2, 0.3, 0.07, 1e12', async () => {
      for (const [price, cost] of [
        [1500.5, 1500.75],
        [0.3, 0.1],
        [0.2, 0.07],
        [19.99, 0.01],
        [1_000_000_000_000, 999_999_999_999.99],
        [0, 0],
      ] as const) {
        const p = await create({ name: 'Money check', price, cost_price: cost });
        expect([p.price, p.cost_price]).to.deep.equal([price, cost]);
        const again = (await get(p.id)).body.data;
        expect([again.price, again.cost_price]).to.deep.equal([price, cost]);
      }
    });

    it('refuses more than 2 decimals (0.1 + 0.2 included) with 400 naming the field', async () => {
      for (const price of [0.1 + 0.2, 12.345, 1.005, 0.001, 1e-7, 1500.505]) {
        const res = await post({ name: 'Too precise', price });
        expectProblem(res, 400, 'VALIDATION_FAILED', 'price');
        expect(res.body.error.errors.find((e: { field: string }) => e.field === 'price').message).to.match(/2 decimals/);
      }
      expectProblem(await post({ name: 'Too precise', price: 1, cost_price: 0.1 * 3 }), 400, 'VALIDATION_FAILED', 'cost_price');
      expectProblem(await post({ name: 'Price as text', price: '1500.50' }), 400, 'VALIDATION_FAILED', 'price');
      expectProblem(await post({ name: 'Null price', price: null }), 400, 'VALIDATION_FAILED', 'price');
    });

    it('refuses more than 1,000,000,000,000.00 with 400', async () => {
      for (const price of [1_000_000_000_000.01, 1e13, 1e21, -1e13]) expectProblem(await post({ name: 'Too big', price }), 400, 'VALIDATION_FAILED', 'price');
      expectProblem(await post({ name: 'Too big', price: 1, cost_price: 1_000_000_000_001 }), 400, 'VALIDATION_FAILED', 'cost_price');
    });

    it('refuses a negative price or cost with 422 NEGATIVE_PRICE (on create and update)', async () => {
      expectProblem(await post({ name: 'Negative', price: -1 }), 422, 'NEGATIVE_PRICE', 'price');
      expectProblem(await post({ name: 'Negative', price: 10, cost_price: -0.01 }), 422, 'NEGATIVE_PRICE', 'cost_price');
      const p = await create({ name: 'Positive', price: 10, cost_price: 5 });
      expectProblem(await put(p.id, { price: -10 }), 422, 'NEGATIVE_PRICE', 'price');
      expectProblem(await put(p.id, { cost_price: -5 }), 422, 'NEGATIVE_PRICE', 'cost_price');
      expect((await get(p.id)).body.data).to.include({ price: 10, cost_price: 5 });
    });

    it('codec + JSON (property): every kobo amount up to the maximum survives naira -> JSON -> kobo -> naira', () => {
      const koboAmount = fc.oneof(fc.integer({ min: 0, max: MAX_KOBO }), fc.constantFrom(0, 1, 9, 10, 99, 100, 101, 110, MAX_KOBO - 1, MAX_KOBO));
      fc.assert(
        fc.property(koboAmount, (k) => {
          const naira = k / 100;
          const wire = JSON.parse(JSON.stringify({ price: naira })).price;
          const decoded = money.decode(wire);
          if (decoded._tag !== 'Right' || decoded.right !== k) return false;
          const back = JSON.parse(JSON.stringify({ price: money.encode(decoded.right) })).price;
          return back === naira && Object.is(back, wire);
        }),
        { numRuns: 3000 },
      );
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), fc.integer({ min: 1, max: 9 }), (k, extra) => {
          const naira = Number(`${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}${extra}`);
          return money.decode(JSON.parse(JSON.stringify(naira)))._tag === 'Left';
        }),
        { numRuns: 3000 },
      );
    });

    it('through HTTP (property): random 2-decimal prices and costs come back identical; 3 decimals are 400', async () => {
      const koboAmount = fc.oneof(fc.integer({ min: 0, max: MAX_KOBO }), fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(1, 10, 99, MAX_KOBO));
      await fc.assert(
        fc.asyncProperty(koboAmount, koboAmount, async (price, cost) => {
          const res = await post({ name: 'Property', price: price / 100, cost_price: cost / 100 });
          expect(res.status, res.text).to.equal(201);
          expect([res.body.data.price, res.body.data.cost_price]).to.deep.equal([price / 100, cost / 100]);
          const read = await get(res.body.data.id);
          expect([read.body.data.price, read.body.data.cost_price]).to.deep.equal([price / 100, cost / 100]);
        }),
        { numRuns: 40 },
      );
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 99_999_999_999 }), fc.integer({ min: 1, max: 9 }), async (k, extra) => {
          const price = Number(`${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}${extra}`);
          expectProblem(await post({ name: 'Property', price }), 400, 'VALIDATION_FAILED', 'price');
        }),
        { numRuns: 15 },
      );
    });
  });

  describe('update (PUT, owner only)', () => {
    it('changes only the fields present; null clears optional ones; required ones cannot be null (400)', async () => {
      const p = await create({ name: 'Golden Penny Spaghetti', sku: 'GP-SPAG', price: 850, cost_price: 700, quantity: 30, category: 'Pasta', low_stock_threshold: 5, barcode: '6151', unit: 'pack' });
      app.clock.advance(1000);
      const priced = await put(p.id, { price: 900 });
      expect(priced.status, priced.text).to.equal(200);
      expect(priced.body.data).to.deep.equal({ ...p, price: 900, updated_at: priced.body.data.updated_at });
      expect(priced.body.data.updated_at).to.equal(app.clock.now().toISOString());
      expect(Date.parse(priced.body.data.updated_at)).to.be.above(Date.parse(p.updated_at));
      const cleared = await put(p.id, { cost_price: null, category: null, low_stock_threshold: null, barcode: null, unit: null });
      expect(cleared.status, cleared.text).to.equal(200);
      expect(cleared.body.data).to.include({ name: p.name, sku: 'GP-SPAG', price: 900, quantity: 30, cost_price: null, category: null, low_stock_threshold: null, barcode: null, unit: null });
      expect((await get(p.id)).body.data).to.deep.equal(cleared.body.data);
      for (const field of ['name', 'price', 'sku', 'type', 'quantity']) expectProblem(await put(p.id, { [field]: null }), 400, 'VALIDATION_FAILED', field);
      expectProblem(await put(p.id, { created_at: '2020-01-01T00:00:00.000Z' }), 400, 'VALIDATION_FAILED', 'created_at');
      expect((await put(p.id, {})).body.data).to.include({ name: p.name, price: 900 });
      expect((await ledgerOf(p.id)).map((r) => r.reason)).to.deep.equal(['INITIAL']);
    });

    it('a new quantity is recorded as a CORRECTION with before and after; the same quantity writes nothing', async () => {
      const p = await create({ name: 'Dangote Sugar', price: 1200, quantity: 10 });
      app.clock.advance(1000);
      const up = await put(p.id, { quantity: 25, name: 'Dangote Sugar 500g' });
      expect(up.status, up.text).to.equal(200);
      expect(up.body.data).to.include({ quantity: 25, name: 'Dangote Sugar 500g' });
      app.clock.advance(1000);
      expect((await put(p.id, { quantity: 25 })).body.data.quantity).to.equal(25);
      app.clock.advance(1000);
      expect((await put(p.id, { quantity: 0 })).body.data.quantity).to.equal(0);
      const rows = await ledgerOf(p.id);
      expect(rows.map((r) => [r.reason, r.quantity_change, r.quantity_before, r.quantity_after])).to.deep.equal([
        ['INITIAL', 10, 0, 10],
        ['CORRECTION', 15, 10, 25],
        ['CORRECTION', -25, 25, 0],
      ]);
      expect(rows[1]!.created_by).to.equal(owner.userId);
      expect((await ledger(`product_id=${p.id}&reason=CORRECTION`)).map((r) => r.id)).to.deep.equal([rows[1]!.id, rows[2]!.id]);
      expectProblem(await put(p.id, { quantity: -1 }), 422, 'QUANTITY_MUST_NOT_BE_NEGATIVE', 'quantity');
      expect(await quantityOf(p.id)).to.equal(0);
    });

    it('a duplicate sku (ignoring case) is 409 DUPLICATE_SKU and changes nothing, quantity included', async () => {
      const a = await create({ name: 'Milo 400g', price: 2500, sku: 'MILO-400' });
      const b = await create({ name: 'Milo 200g', price: 1300, sku: 'MILO-200', quantity: 4 });
      expectProblem(await put(b.id, { sku: 'milo-400' }), 409, 'DUPLICATE_SKU', 'sku');
      expectProblem(await put(b.id, { sku: 'Milo-400', quantity: 50, name: 'renamed' }), 409, 'DUPLICATE_SKU');
      expect((await get(b.id)).body.data).to.include({ sku: 'MILO-200', quantity: 4, name: 'Milo 200g' });
      expect((await ledgerOf(b.id)).map((r) => r.reason)).to.deep.equal(['INITIAL']);
      // its own sku in another case is no clash
      const own = await put(a.id, { sku: 'milo-400' });
      expect(own.status, own.text).to.equal(200);
      expect(own.body.data.sku).to.equal('milo-400');
    });

    it('a product with stock cannot become a service unless its quantity goes to 0 in the same update', async () => {
      const p = await create({ name: 'Repair kit', price: 5000, quantity: 2 });
      expectProblem(await put(p.id, { type: 'SERVICE' }), 422, 'SERVICE_HAS_NO_STOCK', 'type');
      expectProblem(await put(p.id, { type: 'SERVICE', quantity: 1 }), 422, 'SERVICE_HAS_NO_STOCK', 'quantity');
      expect((await get(p.id)).body.data).to.include({ type: 'PRODUCT', quantity: 2 });
      const ok = await put(p.id, { type: 'SERVICE', quantity: 0 });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.data).to.include({ type: 'SERVICE', quantity: 0 });
      expect((await ledgerOf(p.id)).map((r) => [r.reason, r.quantity_change])).to.deep.equal([
        ['INITIAL', 2],
        ['CORRECTION', -2],
      ]);
    });

    it('unknown or malformed ids are 404', async () => {
      expectProblem(await put('00000000-0000-4000-8000-000000000000', { price: 1 }), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await put('not-a-uuid', { price: 1 }), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await get('00000000-0000-4000-8000-000000000000'), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await get('123'), 404, 'RESOURCE_NOT_FOUND');
    });

    it('staff may read, create and adjust stock, but not update (403, nothing changed)', async () => {
      const phone = aPhone();
      const invite = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade' } });
      expect(invite.status, invite.text).to.equal(201);
      await app.request('POST', '/auth/login', { body: { phone } });
      const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
      const staff = signIn.body.data.access_token as string;
      const p = await create({ name: 'Bread', price: 1200, quantity: 3 }, staff);
      expect((await get(p.id, staff)).body.data.id).to.equal(p.id);
      const moved = await adjust({ product_id: p.id, quantity_change: 2, reason: 'RESTOCK' }, { token: staff });
      expect(moved.status, moved.text).to.equal(201);
      expect(moved.body.data.created_by).to.not.equal(owner.userId);
      expectProblem(await put(p.id, { price: 1 }, staff), 403, 'INSUFFICIENT_ROLE');
      expect((await get(p.id)).body.data).to.include({ price: 1200, quantity: 5 });
    });
  });

  describe('list and categories', () => {
    let shop: Owner;
    const ids: Record<string, string> = {};
    before(async () => {
      shop = await registerOwner(app);
      const items: Json[] = [
        { name: 'rice', sku: 'RC-01', category: 'Grains', quantity: 3, low_stock_threshold: 5, price: 400 },
        { name: 'beans', sku: 'BN-01', category: 'grains', quantity: 10, low_stock_threshold: 5, price: 100 },
        { name: 'haircut', sku: 'SV-01', category: 'Services', type: 'SERVICE', low_stock_threshold: 0, price: 300 },
        { name: 'soap', sku: 'SP-01', price: 200, barcode: '6151234567890' },
        { name: 'oil', sku: 'OL-50%', category: 'GRAINS', quantity: 5, low_stock_threshold: 5, price: 500 },
      ];
      for (const item of items) {
        app.clock.advance(1000);
        ids[item.name as string] = (await create(item, shop.accessToken)).id;
      }
      // updated_at order: soap, then rice last
      app.clock.advance(1000);
      expect((await put(ids.soap!, { unit: 'bar' }, shop.accessToken)).status).to.equal(200);
      app.clock.advance(1000);
      expect((await put(ids.rice!, { unit: 'bag' }, shop.accessToken)).status).to.equal(200);
      await create({ name: 'rival rice', category: 'Grains', price: 1 }, rival.accessToken);
    });
    const names = async (query: string) => (await listAll(query, shop.accessToken)).map((p) => p.name);

    it('newest first by default; sorts by name, price, quantity, created_at and updated_at both ways', async () => {
      expect(await names('')).to.deep.equal(['oil', 'soap', 'haircut', 'beans', 'rice']);
      expect(await names('sort_by=name&sort_dir=asc')).to.deep.equal(['beans', 'haircut', 'oil', 'rice', 'soap']);
      expect(await names('sort_by=name')).to.deep.equal(['soap', 'rice', 'oil', 'haircut', 'beans']);
      expect(await names('sort_by=price&sort_dir=asc')).to.deep.equal(['beans', 'soap', 'haircut', 'rice', 'oil']);
      expect(await names('sort_by=price&sort_dir=desc')).to.deep.equal(['oil', 'rice', 'haircut', 'soap', 'beans']);
      expect((await listAll('sort_by=quantity&sort_dir=asc', shop.accessToken)).map((p) => p.quantity)).to.deep.equal([0, 0, 3, 5, 10]);
      expect(await names('sort_by=created_at&sort_dir=asc')).to.deep.equal(['rice', 'beans', 'haircut', 'soap', 'oil']);
      expect(await names('sort_by=updated_at&sort_dir=desc')).to.deep.equal(['rice', 'soap', 'oil', 'haircut', 'beans']);
      expectProblem(await app.request('GET', '/products?sort_by=sku', { token: shop.accessToken }), 400, 'VALIDATION_FAILED', 'sort_by');
    });

    it('filters by category (ignoring case), type and low_stock=true', async () => {
      expect(await names('category=GRAINS&sort_by=name&sort_dir=asc')).to.deep.equal(['beans', 'oil', 'rice']);
      expect(await names('category=services')).to.deep.equal(['haircut']);
      expect(await names('type=SERVICE')).to.deep.equal(['haircut']);
      expect(await names('type=PRODUCT&sort_by=name&sort_dir=asc')).to.deep.equal(['beans', 'oil', 'rice', 'soap']);
      const low = await listAll('low_stock=true&sort_by=name&sort_dir=asc', shop.accessToken);
      expect(low.map((p) => [p.name, p.is_low_stock])).to.deep.equal([
        ['oil', true],
        ['rice', true],
      ]);
      expect(await names('low_stock=false')).to.have.length(5);
      expect(await names('low_stock=true&category=grains&type=PRODUCT&sort_by=name&sort_dir=asc')).to.deep.equal(['oil', 'rice']);
      expectProblem(await app.request('GET', '/products?low_stock=yes', { token: shop.accessToken }), 400, 'VALIDATION_FAILED', 'low_stock');
      expectProblem(await app.request('GET', '/products?type=GOODS', { token: shop.accessToken }), 400, 'VALIDATION_FAILED', 'type');
      // a product that sells down to its threshold becomes low on stock
      const taken = await adjust({ product_id: ids.beans, quantity_change: -5, reason: 'LOSS' }, { token: shop.accessToken });
      expect(taken.status, taken.text).to.equal(201);
      expect(await names('low_stock=true&sort_by=name&sort_dir=asc')).to.deep.equal(['beans', 'oil', 'rice']);
      await adjust({ product_id: ids.beans, quantity_change: 5, reason: 'RETURN' }, { token: shop.accessToken });
    });

    it('searches name, sku, category and barcode ignoring case; % is literal', async () => {
      expect(await names('search=RIC')).to.deep.equal(['rice']);
      expect(await names('search=bn-0')).to.deep.equal(['beans']);
      expect(await names('search=servic')).to.deep.equal(['haircut']);
      expect(await names('search=5123456')).to.deep.equal(['soap']);
      expect(await names('search=%25')).to.deep.equal(['oil']);
      expect(await names('search=grains&sort_by=name&sort_dir=asc')).to.deep.equal(['beans', 'oil', 'rice']);
      expect(await names('search=rival')).to.deep.equal([]);
    });

    it('categories: grouped ignoring case with product counts, this business only', async () => {
      const res = await app.request('GET', '/products/categories', { token: shop.accessToken });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({ cursor: null, has_next: false });
      const content = res.body.data.content as { name: string; product_count: number }[];
      expect(content.map((c) => [c.name.toLowerCase(), c.product_count])).to.deep.equal([
        ['grains', 3],
        ['services', 1],
      ]);
      expect(['Grains', 'grains', 'GRAINS']).to.include(content[0]!.name);
    });
  });

  describe('tenancy', () => {
    it("another business's product and ledger rows are 404 everywhere; nothing changes", async () => {
      const p = await create({ name: 'Owner only', sku: 'OWN-1', price: 100, quantity: 7, category: 'Secret' });
      const row = (await ledgerOf(p.id))[0]!;
      expectProblem(await get(p.id, rival.accessToken), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await put(p.id, { name: 'stolen', quantity: 0 }, rival.accessToken), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await app.request('GET', `/products/stock-adjustments/${row.id}`, { token: rival.accessToken }), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await adjust({ product_id: p.id, quantity_change: -7, reason: 'LOSS' }, { token: rival.accessToken }), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await adjust({ product_id: p.id, quantity_change: 3, reason: 'RESTOCK' }, { token: rival.accessToken }), 404, 'RESOURCE_NOT_FOUND');
      expect(await ledgerOf(p.id, rival.accessToken)).to.deep.equal([]);
      expect((await listAll('search=OWN-1', rival.accessToken)).map((x) => x.id)).to.deep.equal([]);
      const rivalCategories = (await app.request('GET', '/products/categories', { token: rival.accessToken })).body.data.content as { name: string }[];
      expect(rivalCategories.map((c) => c.name)).to.not.include('Secret');

      expect((await get(p.id)).body.data).to.include({ name: 'Owner only', quantity: 7 });
      expect(await ledgerOf(p.id)).to.deep.equal([row]);
      expect((await app.request('GET', `/products/stock-adjustments/${row.id}`)).status).to.equal(401);
    });
  });

  describe('stock adjustments', () => {
    it('201 with quantity before and after; readable by id and in the ledger', async () => {
      const p = await create({ name: 'Coke 50cl', price: 300, quantity: 10 });
      const res = await adjust({ product_id: p.id.toUpperCase(), quantity_change: 24, reason: 'RESTOCK', note: 'from the depot', unit_cost: 250.5 });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.success).to.equal(true);
      const m = res.body.data;
      expect(m).to.include({ product_id: p.id, quantity_change: 24, quantity_before: 10, quantity_after: 34, reason: 'RESTOCK', note: 'from the depot', unit_cost: 250.5, created_by: owner.userId });
      expect(await quantityOf(p.id)).to.equal(34);
      const one = await app.request('GET', `/products/stock-adjustments/${m.id}`, { token: owner.accessToken });
      expect(one.status).to.equal(200);
      expect(one.body.data).to.deep.equal(m);
      expect((await ledgerOf(p.id)).map((r) => r.id)).to.include(m.id);
      const bare = await adjust({ product_id: p.id, quantity_change: -4, reason: 'DAMAGE' });
      expect(bare.body.data).to.include({ quantity_before: 34, quantity_after: 30, note: null, unit_cost: null });
      expectProblem(await app.request('GET', '/products/stock-adjustments/00000000-0000-4000-8000-000000000000', { token: owner.accessToken }), 404, 'RESOURCE_NOT_FOUND');
      expectProblem(await app.request('GET', '/products/stock-adjustments/nope', { token: owner.accessToken }), 404, 'RESOURCE_NOT_FOUND');
    });

    it('refuses a malformed adjustment with 400 naming the field, and writes nothing', async () => {
      const p = await create({ name: 'Malformed target', price: 300, quantity: 5 });
      const bad: [Json, string][] = [
        [{ product_id: p.id, quantity_change: 0, reason: 'RESTOCK' }, 'quantity_change'],
        [{ product_id: p.id, quantity_change: 1.5, reason: 'RESTOCK' }, 'quantity_change'],
        [{ product_id: p.id, quantity_change: '2', reason: 'RESTOCK' }, 'quantity_change'],
        [{ product_id: p.id, reason: 'RESTOCK' }, 'quantity_change'],
        [{ product_id: p.id, quantity_change: 1 }, 'reason'],
        [{ product_id: p.id, quantity_change: 1, reason: 'SALE' }, 'reason'],
        [{ product_id: p.id, quantity_change: 1, reason: 'INITIAL' }, 'reason'],
        [{ product_id: p.id, quantity_change: 1, reason: 'restock' }, 'reason'],
        [{ product_id: 'abc', quantity_change: 1, reason: 'RESTOCK' }, 'product_id'],
        [{ quantity_change: 1, reason: 'RESTOCK' }, 'product_id'],
        [{ product_id: p.id, quantity_change: 1, reason: 'RESTOCK', unit_cost: 1.234 }, 'unit_cost'],
        [{ product_id: p.id, quantity_change: 1, reason: 'RESTOCK', note: '' }, 'note'],
        [{ product_id: p.id, quantity_change: 1, reason: 'RESTOCK', quantity_after: 6 }, 'quantity_after'],
      ];
      for (const [body, field] of bad) expectProblem(await adjust(body), 400, 'VALIDATION_FAILED', field);
      expectProblem(await adjust({ product_id: p.id, quantity_change: 1, reason: 'RESTOCK', unit_cost: -1 }), 422, 'NEGATIVE_PRICE', 'unit_cost');
      expectProblem(await adjust({ product_id: '00000000-0000-4000-8000-000000000000', quantity_change: 1, reason: 'RESTOCK' }), 404, 'RESOURCE_NOT_FOUND');
      expect(await quantityOf(p.id)).to.equal(5);
      expect((await ledgerOf(p.id)).map((r) => r.reason)).to.deep.equal(['INITIAL']);
    });

    it('below zero is 409 INSUFFICIENT_STOCK and writes nothing', async () => {
      const p = await create({ name: 'Scarce', price: 300, quantity: 3 });
      const res = await adjust({ product_id: p.id, quantity_change: -4, reason: 'LOSS' });
      expectProblem(res, 409, 'INSUFFICIENT_STOCK');
      expect(res.body.message).to.match(/3/);
      expect(await quantityOf(p.id)).to.equal(3);
      expect((await ledgerOf(p.id)).map((r) => r.reason)).to.deep.equal(['INITIAL']);
      const exact = await adjust({ product_id: p.id, quantity_change: -3, reason: 'LOSS' });
      expect(exact.status, exact.text).to.equal(201);
      expect(exact.body.data).to.include({ quantity_before: 3, quantity_after: 0 });
      expectProblem(await adjust({ product_id: p.id, quantity_change: -1, reason: 'LOSS' }), 409, 'INSUFFICIENT_STOCK');
      expect(await quantityOf(p.id)).to.equal(0);
    });

    it('every ADJUSTMENT reason is accepted and filterable; the list filters by product and reason', async () => {
      const p = await create({ name: 'Reasons', price: 300, quantity: 100 });
      const reasons = ['RESTOCK', 'DAMAGE', 'LOSS', 'RETURN', 'CORRECTION', 'OTHER'];
      for (const reason of reasons) {
        app.clock.advance(10);
        const res = await adjust({ product_id: p.id, quantity_change: reason === 'RESTOCK' || reason === 'RETURN' ? 2 : -1, reason });
        expect(res.status, res.text).to.equal(201);
      }
      expect((await ledgerOf(p.id)).map((r) => r.reason)).to.deep.equal(['INITIAL', ...reasons]);
      for (const reason of reasons) expect((await ledger(`product_id=${p.id}&reason=${reason}`)).map((r) => r.reason)).to.deep.equal([reason]);
      expectProblem(await app.request('GET', '/products/stock-adjustments?reason=NOPE', { token: owner.accessToken }), 400, 'VALIDATION_FAILED', 'reason');
      expectProblem(await app.request('GET', '/products/stock-adjustments?product_id=nope', { token: owner.accessToken }), 400, 'VALIDATION_FAILED', 'product_id');
      const newestFirst = await app.request('GET', `/products/stock-adjustments?product_id=${p.id}&limit=1`, { token: owner.accessToken });
      expect(newestFirst.body.data.content[0].reason).to.equal('OTHER');
      expect(newestFirst.body.data.has_next).to.equal(true);
    });

    it('the ledger explains the quantity: opening stock, adjustments and PUTs add up, each row continuing the last', async () => {
      const p = await create({ name: 'Explained', price: 300, quantity: 10 });
      const steps: (() => Promise<TestResponse>)[] = [
        () => adjust({ product_id: p.id, quantity_change: 5, reason: 'RESTOCK' }),
        () => adjust({ product_id: p.id, quantity_change: -3, reason: 'DAMAGE' }),
        () => put(p.id, { quantity: 20 }),
        () => put(p.id, { quantity: 20, price: 350 }),
        () => adjust({ product_id: p.id, quantity_change: -21, reason: 'LOSS' }),
        () => put(p.id, { name: 'Explained well' }),
        () => adjust({ product_id: p.id, quantity_change: -20, reason: 'OTHER' }),
        () => put(p.id, { quantity: 7 }),
        () => adjust({ product_id: p.id, quantity_change: 1, reason: 'RETURN' }),
      ];
      for (const step of steps) {
        app.clock.advance(1000);
        expect((await step()).status).to.be.oneOf([200, 201, 409]);
      }
      const rows = await ledgerOf(p.id);
      const quantity = await quantityOf(p.id);
      expect(quantity).to.equal(8);
      expect(sumOf(rows)).to.equal(quantity);
      expect(rows.map((r) => [r.reason, r.quantity_change])).to.deep.equal([
        ['INITIAL', 10],
        ['RESTOCK', 5],
        ['DAMAGE', -3],
        ['CORRECTION', 8],
        ['OTHER', -20],
        ['CORRECTION', 7],
        ['RETURN', 1],
      ]);
      let previous = 0;
      for (const r of rows) {
        expect(r.quantity_before).to.equal(previous);
        expect(r.quantity_after).to.equal(r.quantity_before + r.quantity_change);
        previous = r.quantity_after;
      }
    });
  });

  describe('concurrency', () => {
    it('20 simultaneous takes of 1 from 15: exactly 15 succeed, 5 are 409, quantity 0, 15 DAMAGE rows', async () => {
      const p = await create({ name: 'Contested', price: 100, quantity: 15 });
      const answers = await Promise.all(Array.from({ length: 20 }, () => adjust({ product_id: p.id, quantity_change: -1, reason: 'DAMAGE' })));
      expect(answers.filter((a) => a.status === 201)).to.have.length(15);
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused).to.have.length(5);
      for (const r of refused) expectProblem(r, 409, 'INSUFFICIENT_STOCK');
      expect(answers.filter((a) => a.status === 201).map((a) => a.body.data.quantity_after).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i));
      expect(await quantityOf(p.id)).to.equal(0);
      const damage = await ledger(`product_id=${p.id}&reason=DAMAGE`);
      expect(damage).to.have.length(15);
      for (const r of damage) expect(r.quantity_before).to.equal(r.quantity_after + 1);
      expect(sumOf(await ledgerOf(p.id))).to.equal(0);
    });

    it('20 simultaneous +1: exactly +20, every row with its own before and after', async () => {
      const p = await create({ name: 'Piled up', price: 100, quantity: 3 });
      const answers = await Promise.all(Array.from({ length: 20 }, () => adjust({ product_id: p.id, quantity_change: 1, reason: 'RESTOCK' })));
      expect(answers.map((a) => a.status)).to.deep.equal(Array.from({ length: 20 }, () => 201));
      expect(answers.map((a) => a.body.data.quantity_after).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 4));
      expect(await quantityOf(p.id)).to.equal(23);
      expect(sumOf(await ledgerOf(p.id))).to.equal(23);
    });

    it('a PUT of the quantity among simultaneous adjustments sets exactly that quantity; the ledger still adds up', async () => {
      const p = await create({ name: 'Counted', price: 100, quantity: 100 });
      const adjustments = Array.from({ length: 20 }, (_, i) => adjust({ product_id: p.id, quantity_change: i % 2 === 0 ? 1 : -1, reason: i % 2 === 0 ? 'RESTOCK' : 'DAMAGE' }));
      const counted = put(p.id, { quantity: 50 });
      const more = Array.from({ length: 10 }, () => adjust({ product_id: p.id, quantity_change: 1, reason: 'RETURN' }));
      const [set, ...answers] = await Promise.all([counted, ...adjustments, ...more]);
      expect(set!.status, set!.text).to.equal(200);
      expect(set!.body.data.quantity).to.equal(50);
      expect(answers.map((a) => a.status)).to.deep.equal(Array.from({ length: 30 }, () => 201));
      const rows = await ledgerOf(p.id);
      const correction = rows.filter((r) => r.reason === 'CORRECTION');
      expect(correction).to.have.length(1);
      expect(correction[0]!.quantity_after, 'the counted quantity is what the correction leaves').to.equal(50);
      expect(correction[0]!.quantity_after).to.equal(correction[0]!.quantity_before + correction[0]!.quantity_change);
      expect(sumOf(rows)).to.equal(await quantityOf(p.id));
    });
  });

  describe('idempotency (Idempotency-Key on POST /products/stock-adjustment)', () => {
    let keyCounter = 0;
    const aKey = () => `key-${Date.now()}-${keyCounter++}`;

    it('a replay answers the first status and body (Idempotent-Replayed) and moves stock once', async () => {
      const p = await create({ name: 'Replayed', price: 100, quantity: 10 });
      const key = aKey();
      const body = { product_id: p.id, quantity_change: -2, reason: 'DAMAGE', note: 'dropped' };
      const first = await adjust(body, { key });
      expect(first.status, first.text).to.equal(201);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      app.clock.advance(HOUR_MS);
      const again = await adjust(body, { key });
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      // the same body with its keys in another order is the same request
      const reordered = await adjust({ note: 'dropped', reason: 'DAMAGE', quantity_change: -2, product_id: p.id }, { key });
      expect(reordered.status).to.equal(201);
      expect(reordered.body).to.deep.equal(first.body);
      expect(await quantityOf(p.id)).to.equal(8);
      expect((await ledgerOf(p.id)).map((r) => r.reason)).to.deep.equal(['INITIAL', 'DAMAGE']);
      // without a key nothing is deduplicated
      await adjust(body);
      expect(await quantityOf(p.id)).to.equal(6);
    });

    it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
      const p = await create({ name: 'Reused', price: 100, quantity: 10 });
      const key = aKey();
      expect((await adjust({ product_id: p.id, quantity_change: 1, reason: 'RESTOCK' }, { key })).status).to.equal(201);
      expectProblem(await adjust({ product_id: p.id, quantity_change: 2, reason: 'RESTOCK' }, { key }), 422, 'IDEMPOTENCY_KEY_REUSED');
      expectProblem(await adjust({ product_id: p.id, quantity_change: 1, reason: 'RESTOCK', note: 'x' }, { key }), 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(await quantityOf(p.id)).to.equal(11);
      // still replayed for the original body afterwards
      expect((await adjust({ product_id: p.id, quantity_change: 1, reason: 'RESTOCK' }, { key })).headers.get('idempotent-replayed')).to.equal('true');
    });

    it('keys are scoped per business: the same key in another business runs its own request', async () => {
      const mine = await create({ name: 'Scoped', price: 100, quantity: 10 });
      const theirs = await create({ name: 'Scoped', price: 100, quantity: 10 }, rival.accessToken);
      const key = aKey();
      const a = await adjust({ product_id: mine.id, quantity_change: -1, reason: 'LOSS' }, { key });
      const b = await adjust({ product_id: theirs.id, quantity_change: -1, reason: 'LOSS' }, { key, token: rival.accessToken });
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(b.headers.get('idempotent-replayed')).to.equal(null);
      expect(b.body.data.product_id).to.equal(theirs.id);
      expect(await quantityOf(mine.id)).to.equal(9);
      expect(await quantityOf(theirs.id, rival.accessToken)).to.equal(9);
    });

    it('a key longer than 255 characters is 400; 255 is fine', async () => {
      const p = await create({ name: 'Long key', price: 100, quantity: 10 });
      const res = await adjust({ product_id: p.id, quantity_change: 1, reason: 'RESTOCK' }, { key: 'k'.repeat(256) });
      expectProblem(res, 400, 'VALIDATION_FAILED', 'Idempotency-Key');
      expect(await quantityOf(p.id)).to.equal(10);
      expect((await adjust({ product_id: p.id, quantity_change: 1, reason: 'RESTOCK' }, { key: 'k'.repeat(255) })).status).to.equal(201);
      expect(await quantityOf(p.id)).to.equal(11);
    });

    it('simultaneous requests with one key: exactly one runs, the others get 409 IDEMPOTENCY_IN_PROGRESS or the replay', async () => {
      const p = await create({ name: 'Raced key', price: 100, quantity: 10 });
      const key = aKey();
      const body = { product_id: p.id, quantity_change: -1, reason: 'LOSS' };
      const answers = await Promise.all(Array.from({ length: 12 }, () => adjust(body, { key })));
      const ran = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
      expect(ran).to.have.length(1);
      for (const a of answers) {
        if (a === ran[0]) continue;
        if (a.status === 409) expectProblem(a, 409, 'IDEMPOTENCY_IN_PROGRESS');
        else {
          expect(a.status, a.text).to.equal(201);
          expect(a.headers.get('idempotent-replayed')).to.equal('true');
          expect(a.body).to.deep.equal(ran[0]!.body);
        }
      }
      expect(await quantityOf(p.id)).to.equal(9);
      expect((await ledgerOf(p.id)).map((r) => r.reason)).to.deep.equal(['INITIAL', 'LOSS']);
    });

    type Handler = (input: unknown) => Promise<unknown>;
    /** Replaces the stock-adjustment handler of the running app for one test (a fault, or a request held open). */
    const withHandler = async (replace: (original: Handler) => Handler, work: () => Promise<void>) => {
      const route = app.routes.find((r) => r.operationId === 'adjustStock') as unknown as { handler: Handler };
      const original = route.handler;
      route.handler = replace(original);
      try {
        await work();
      } finally {
        route.handler = original;
      }
    };

    it('while the first request with a key runs, the same key is 409 IDEMPOTENCY_IN_PROGRESS; afterwards the replay', async () => {
      const p = await create({ name: 'Held', price: 100, quantity: 10 });
      const key = aKey();
      const body = { product_id: p.id, quantity_change: 4, reason: 'RESTOCK' };
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      await withHandler(
        (original) => async (input) => {
          entered();
          await gate;
          return original(input);
        },
        async () => {
          const first = adjust(body, { key });
          await inside;
          expectProblem(await adjust(body, { key }), 409, 'IDEMPOTENCY_IN_PROGRESS');
          expectProblem(await adjust({ ...body, quantity_change: 5 }, { key }), 422, 'IDEMPOTENCY_KEY_REUSED');
          release();
          const done = await first;
          expect(done.status, done.text).to.equal(201);
          const replay = await adjust(body, { key });
          expect(replay.headers.get('idempotent-replayed')).to.equal('true');
          expect(replay.body).to.deep.equal(done.body);
        },
      );
      expect(await quantityOf(p.id)).to.equal(14);
    });

    it('a fault (500) frees the key: the retry with the same key runs', async () => {
      const p = await create({ name: 'Faulty', price: 100, quantity: 10 });
      const key = aKey();
      const body = { product_id: p.id, quantity_change: 3, reason: 'RESTOCK' };
      await withHandler(
        () => async () => {
          throw new Error('the disk caught fire');
        },
        async () => {
          const failed = await adjust(body, { key });
          expectProblem(failed, 500, 'INTERNAL');
          expect(failed.text).to.not.contain('disk');
        },
      );
      expect(await quantityOf(p.id)).to.equal(10);
      const retry = await adjust(body, { key });
      expect(retry.status, retry.text).to.equal(201);
      expect(retry.headers.get('idempotent-replayed')).to.equal(null);
      expect(await quantityOf(p.id)).to.equal(13);
    });

    it('a final 4xx answer (409 INSUFFICIENT_STOCK) is stored and replayed exactly, even after stock arrives', async () => {
      const p = await create({ name: 'Refused once', price: 100, quantity: 5 });
      const key = aKey();
      const body = { product_id: p.id, quantity_change: -8, reason: 'LOSS' };
      // a clock that moves on every reading, so a body rendered twice would differ
      const frozen = app.clock.now;
      let tick = frozen().getTime();
      app.clock.now = () => new Date((tick += 7));
      try {
        const first = await adjust(body, { key });
        expectProblem(first, 409, 'INSUFFICIENT_STOCK');
        expect((await adjust({ product_id: p.id, quantity_change: 10, reason: 'RESTOCK' })).status).to.equal(201);
        const replay = await adjust(body, { key });
        expect(replay.status).to.equal(409);
        expect(replay.headers.get('idempotent-replayed')).to.equal('true');
        expect(replay.body).to.deep.equal(first.body);
        // a 201 is replayed exactly too
        const okKey = aKey();
        const okBody = { product_id: p.id, quantity_change: -1, reason: 'LOSS' };
        const done = await adjust(okBody, { key: okKey });
        expect(done.status).to.equal(201);
        expect((await adjust(okBody, { key: okKey })).body).to.deep.equal(done.body);
      } finally {
        app.clock.now = frozen;
      }
      expect(await quantityOf(p.id)).to.equal(14);
      expect((await ledgerOf(p.id)).map((r) => r.reason)).to.deep.equal(['INITIAL', 'RESTOCK', 'LOSS']);
    });

    it('after 24 hours a key is forgotten: the same key runs again', async () => {
      const p = await create({ name: 'Expired key', price: 100, quantity: 10 });
      const key = aKey();
      const body = { product_id: p.id, quantity_change: -1, reason: 'LOSS' };
      expect((await adjust(body, { key })).status).to.equal(201);
      app.clock.advance(23 * HOUR_MS);
      expect((await adjust(body, { key })).headers.get('idempotent-replayed')).to.equal('true');
      expect(await quantityOf(p.id)).to.equal(9);
      app.clock.advance(HOUR_MS + 1);
      const fresh = await adjust(body, { key });
      expect(fresh.status, fresh.text).to.equal(201);
      expect(fresh.headers.get('idempotent-replayed')).to.equal(null);
      expect(await quantityOf(p.id)).to.equal(8);
    });

    it('POST /products honours it too (issue 32, docs/adr/0045): the same key and body make one product', async () => {
      const key = aKey();
      const a = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Made once', price: 1 }, headers: { 'idempotency-key': key } });
      const b = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Made once', price: 1 }, headers: { 'idempotency-key': key } });
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(b.body).to.deep.equal(a.body);
      expect(b.headers.get('idempotent-replayed')).to.equal('true');
    });
  });
});

describe('HTTP products: pages stay consistent while products are added between them', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  for (const [sortBy, sortDir] of [['name', 'asc'], ['price', 'desc'], ['created_at', 'desc']] as const) {
    it(`sort_by=${sortBy}&sort_dir=${sortDir}: every product present from the start comes exactly once`, async () => {
      const owner = await registerOwner(app);
      const original: string[] = [];
      for (let i = 0; i < 23; i++) {
        app.clock.advance(7);
        const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name: `item ${String.fromCharCode(97 + (i % 26))}`, price: (i % 5) * 10 } });
        original.push(res.body.data.id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let added = 0;
      do {
        const query: string = `sort_by=${sortBy}&sort_dir=${sortDir}&limit=4${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await app.request('GET', `/products?${query}`, { token: owner.accessToken });
        expect(page.status, page.text).to.equal(200);
        seen.push(...page.body.data.content.map((p: { id: string }) => p.id));
        cursor = page.body.data.cursor;
        // a cashier adds products at both ends of the order between two pages
        for (const name of ['aaa new', 'zzz new']) {
          app.clock.advance(7);
          await app.request('POST', '/products', { token: owner.accessToken, body: { name, price: added++ % 2 ? 0 : 1000 } });
        }
      } while (cursor);
      expect(new Set(seen).size, 'no product repeated').to.equal(seen.length);
      expect(original.every((id) => seen.includes(id)), 'no original product skipped').to.equal(true);
    });
  }
});
