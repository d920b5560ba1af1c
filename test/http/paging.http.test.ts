import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

// Lists through the real app (API-DECISIONS "Lists"): the page object, limit, cursor signing and
// binding, sort allow-list, unknown parameters, Lagos dates, search. Branches are the list under test
// (GET /businesses/{id}/branches); staff search goes through GET /businesses/staff.
//
// The test clock does not tick on its own: branches created without moving it share one created_at,
// so the created_at sort is full of ties broken by id.

type Owner = Awaited<ReturnType<typeof registerOwner>>;
interface BranchJson {
  id: string;
  name: string;
  created_at: string;
}

const businessIdOf = async (app: TestApp, token: string) => {
  const res = await app.request('GET', '/businesses/me', { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.data.id as string;
};

const createBranch = async (app: TestApp, owner: Owner, name: string, extra: { address?: string; phone?: string } = {}) => {
  const res = await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name, ...extra } });
  expect(res.status, res.text).to.equal(201);
  return res.body.data as BranchJson;
};

const qs = (params: Record<string, string | number | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) s.set(k, String(v));
  const text = s.toString();
  return text ? `?${text}` : '';
};

/** A 400 VALIDATION_FAILED whose errors name `field`. */
const expect400 = (res: TestResponse, field: string) => {
  expect(res.status, res.text).to.equal(400);
  expect(res.body.success).to.equal(false);
  expect(res.body.error.code).to.equal('VALIDATION_FAILED');
  const fields = (res.body.error.errors ?? []).map((e: { field: string }) => e.field);
  expect(fields, res.text).to.include(field);
};

/** The page object: exactly {content, cursor, has_next, limit}. */
const expectPage = (res: TestResponse) => {
  expect(res.status, res.text).to.equal(200);
  expect(Object.keys(res.body.data).sort()).to.deep.equal(['content', 'cursor', 'has_next', 'limit']);
  const page = res.body.data as { content: BranchJson[]; cursor: string | null; has_next: boolean; limit: number };
  expect(page.has_next).to.equal(page.cursor !== null);
  return page;
};

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The string with the character at `i` replaced by another base64url character (its lowest bit flipped). */
const flipAt = (s: string, i: number) => {
  const c = s[i]!;
  const idx = B64URL.indexOf(c);
  const other = idx < 0 ? 'A' : B64URL[idx ^ 1]!;
  return s.slice(0, i) + other + s.slice(i + 1);
};

describe('HTTP lists: paging, cursors, dates, search', function () {
  this.timeout(60_000);
  let app: TestApp;
  let owner: Owner;
  let businessId: string;
  /** Every branch of the owner's business (the default one included). */
  let branches: BranchJson[];
  const listPath = () => `/businesses/${businessId}/branches`;
  const list = (params: Record<string, string | number | undefined> = {}) => app.request('GET', `${listPath()}${qs(params)}`, { token: owner.accessToken });

  /** Follows the cursor from the first page to the last; returns every page. */
  const walk = async (params: Record<string, string | number | undefined>) => {
    const pages: ReturnType<typeof expectPage>[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = expectPage(await list({ ...params, cursor }));
      pages.push(page);
      if (!page.has_next) return pages;
      expect(page.content).to.have.length(page.limit);
      cursor = page.cursor!;
      if (pages.length > 100) throw new Error('the walk did not end');
    }
  };

  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    businessId = await businessIdOf(app, owner.accessToken);
    // Lowercase ASCII names, so PostgreSQL's collation and JavaScript agree on the name order.
    const names = ['ikeja', 'yaba', 'lekki', 'ajah', 'ikeja', 'surulere', 'ikeja', 'apapa', 'oshodi', 'yaba', 'ikoyi', 'agege', 'ikeja'];
    for (let i = 0; i < 25; i++) {
      if (i % 5 === 0) app.clock.advance(1000); // some created_at ties, some not
      await createBranch(app, owner, names[i % names.length]!);
    }
    // The default branch is named at registration (capitalised): rename it to lowercase too.
    const first = expectPage(await list({ limit: 100 })).content.find((b) => b.name !== b.name.toLowerCase());
    if (first) {
      const renamed = await app.request('PUT', `${listPath()}/${first.id}`, { token: owner.accessToken, body: { name: 'main' } });
      expect(renamed.status, renamed.text).to.equal(200);
    }
    const all = await walk({ limit: 100 });
    branches = all.flatMap((p) => p.content);
    expect(branches.every((b) => /^[a-z]+$/.test(b.name))).to.equal(true);
    expect(branches).to.have.length(26);
  });
  after(async () => app.close());

  const idsIn = (pages: { content: BranchJson[] }[]) => pages.flatMap((p) => p.content.map((b) => b.id));
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const expectedIds = (sortBy: 'created_at' | 'name', sortDir: 'asc' | 'desc', rows = branches) =>
    [...rows]
      .sort((a, b) => (sortDir === 'asc' ? 1 : -1) * (cmp(a[sortBy], b[sortBy]) || cmp(a.id, b.id)))
      .map((b) => b.id);

  it('defaults to 20 items, created_at descending, with a cursor to the rest', async () => {
    const page = expectPage(await list());
    expect(page.limit).to.equal(20);
    expect(page.content).to.have.length(20);
    expect(page.has_next).to.equal(true);
    expect(page.cursor).to.be.a('string');
    expect(page.content.map((b) => b.id)).to.deep.equal(expectedIds('created_at', 'desc').slice(0, 20));
    const rest = expectPage(await list({ cursor: page.cursor! }));
    expect(rest.content.map((b) => b.id)).to.deep.equal(expectedIds('created_at', 'desc').slice(20));
    expect(rest.has_next).to.equal(false);
    expect(rest.cursor).to.equal(null);
    expect(rest.limit).to.equal(20);
  });

  it('refuses limit 0, 101, abc, -1, 1.5 and a repeated limit with 400 VALIDATION_FAILED naming limit', async () => {
    for (const limit of ['0', '101', 'abc', '-1', '1.5', '', '1e1']) expect400(await list({ limit }), 'limit');
    expect400(await app.request('GET', `${listPath()}?limit=2&limit=3`, { token: owner.accessToken }), 'limit');
    expect(expectPage(await list({ limit: 1 })).content).to.have.length(1);
    expect(expectPage(await list({ limit: 100 })).content).to.have.length(26);
  });

  it('says has_next false and cursor null on the last page, also when it is exactly full', async () => {
    const exact = expectPage(await list({ limit: 26 }));
    expect(exact.content).to.have.length(26);
    expect(exact.has_next).to.equal(false);
    expect(exact.cursor).to.equal(null);
    const first = expectPage(await list({ limit: 13 }));
    expect(first.has_next).to.equal(true);
    const last = expectPage(await list({ limit: 13, cursor: first.cursor! }));
    expect(last.content).to.have.length(13);
    expect(last.has_next).to.equal(false);
    expect(last.cursor).to.equal(null);
  });

  it('walking every page with the returned cursor returns every branch once, in order, for every sort', async () => {
    for (const sort_by of ['created_at', 'name'] as const) {
      for (const sort_dir of ['asc', 'desc'] as const) {
        for (const limit of [1, 4, 7]) {
          const pages = await walk({ sort_by, sort_dir, limit });
          const ids = idsIn(pages);
          expect(ids, `${sort_by} ${sort_dir} ${limit}`).to.deep.equal(expectedIds(sort_by, sort_dir));
          expect(new Set(ids).size).to.equal(branches.length);
          expect(pages).to.have.length(Math.ceil(branches.length / limit));
        }
      }
    }
  });

  it('a cursor may be followed with another limit', async () => {
    const first = expectPage(await list({ sort_by: 'name', sort_dir: 'asc', limit: 5 }));
    const rest = expectPage(await list({ sort_by: 'name', sort_dir: 'asc', limit: 100, cursor: first.cursor! }));
    expect([...first.content, ...rest.content].map((b) => b.id)).to.deep.equal(expectedIds('name', 'asc'));
  });

  it('refuses a tampered cursor (any character of either part flipped) with 400 naming cursor', async () => {
    const page = expectPage(await list({ sort_by: 'name', limit: 3 }));
    const cursor = page.cursor!;
    const dot = cursor.indexOf('.');
    expect(dot).to.be.greaterThan(0);
    expect(cursor.indexOf('.', dot + 1), 'two parts').to.equal(-1);
    const positions = [...cursor].map((_, i) => i).filter((i) => i !== dot);
    for (const i of positions) {
      const tampered = flipAt(cursor, i);
      expect(tampered).to.not.equal(cursor);
      expect400(await list({ sort_by: 'name', limit: 3, cursor: tampered }), 'cursor');
    }
    const [body, tag] = cursor.split('.') as [string, string];
    for (const bad of [
      body,
      `${body}.`,
      `.${tag}`,
      `${tag}.${body}`,
      `${cursor}.${tag}`,
      `${body}A.${tag}`,
      `${body}.${tag}A`,
      `${body}.${tag.slice(0, -1)}`,
      'not-a-cursor',
      Buffer.from(JSON.stringify({ q: 'x', v: 'ikeja', i: branches[0]!.id })).toString('base64url') + `.${tag}`,
    ]) {
      expect400(await list({ sort_by: 'name', limit: 3, cursor: bad }), 'cursor');
    }
    // The untouched cursor still works.
    expect(expectPage(await list({ sort_by: 'name', limit: 3, cursor })).content).to.have.length(3);
  });

  it('refuses a cursor reused with another sort_by, sort_dir, search or dates (400 naming cursor)', async () => {
    const base = { sort_by: 'name', sort_dir: 'asc', search: 'ik', limit: 2 };
    const page = expectPage(await list(base));
    expect(page.has_next).to.equal(true);
    const cursor = page.cursor!;
    expect(expectPage(await list({ ...base, cursor })).content.length).to.be.greaterThan(0);
    for (const changed of [
      { sort_by: 'created_at' },
      { sort_dir: 'desc' },
      { search: 'ike' },
      { search: undefined },
      { start_date: '2026-01-01' },
      { end_date: '2030-01-01T00:00:00Z' },
    ]) {
      expect400(await list({ ...base, ...changed, cursor }), 'cursor');
    }
  });

  it('refuses an unknown sort_by or sort_dir, and an unknown parameter by name', async () => {
    expect400(await list({ sort_by: 'address' }), 'sort_by');
    expect400(await list({ sort_by: 'NAME' }), 'sort_by');
    expect400(await list({ sort_by: 'id' }), 'sort_by');
    expect400(await list({ sort_dir: 'up' }), 'sort_dir');
    expect400(await list({ page: 2 }), 'page');
    expect400(await list({ offset: 10, limit: 5 }), 'offset');
    expect400(await list({ sortBy: 'name' }), 'sortBy');
  });

  it('search is case-insensitive over name, address and phone; % is literal', async () => {
    const other = await registerOwner(app);
    const otherId = await businessIdOf(app, other.accessToken);
    const ids = async (token: string, id: string, search: string) => {
      const res = await app.request('GET', `/businesses/${id}/branches${qs({ search, limit: 100 })}`, { token });
      return expectPage(res).content.map((b) => b.id).sort();
    };
    const phone = aPhone();
    const shop = await createBranch(app, other, 'Marina Shop', { address: 'Plot 9, Broad STREET', phone });
    const pct = await createBranch(app, other, 'half%price');
    await createBranch(app, other, 'halfxprice');
    expect(await ids(other.accessToken, otherId, 'MARINA')).to.deep.equal([shop.id]);
    expect(await ids(other.accessToken, otherId, 'broad street')).to.deep.equal([shop.id]);
    expect(await ids(other.accessToken, otherId, phone.slice(-7))).to.deep.equal([shop.id]);
    expect(await ids(other.accessToken, otherId, phone)).to.deep.equal([shop.id]);
    expect(await ids(other.accessToken, otherId, 'f%p')).to.deep.equal([pct.id]);
    // The first business sees none of them, and the other business cannot list the first's branches.
    expect(await ids(owner.accessToken, businessId, 'marina')).to.deep.equal([]);
    expect((await app.request('GET', `/businesses/${businessId}/branches`, { token: other.accessToken })).status).to.equal(404);
  });

  describe('start_date / end_date (Lagos days or date-times, inclusive)', () => {
    let dated: Owner;
    let datedBusiness: string;
    /** Branch ids by the instant they were created at. */
    const at: Record<string, string> = {};
    const INSTANTS = [
      '2026-11-19T22:59:59.999Z', // Lagos 2026-11-19 23:59:59.999
      '2026-11-19T23:00:00.000Z', // Lagos 2026-11-20 00:00
      '2026-11-20T12:00:00.000Z', // Lagos 2026-11-20 13:00
      '2026-11-20T22:59:59.999Z', // Lagos 2026-11-20 23:59:59.999 (still the 20th)
      '2026-11-20T23:00:00.000Z', // Lagos 2026-11-21 00:00
      '2026-11-21T22:59:59.999Z', // Lagos 2026-11-21 23:59:59.999
      '2026-11-21T23:00:00.000Z', // Lagos 2026-11-22 00:00
    ];
    const datedList = (params: Record<string, string | number | undefined>) =>
      app.request('GET', `/businesses/${datedBusiness}/branches${qs({ limit: 100, ...params })}`, { token: dated.accessToken });
    const idsFor = async (params: Record<string, string | undefined>) => {
      const page = expectPage(await datedList(params));
      return page.content.map((b) => b.id).sort();
    };
    const idsAt = (...instants: string[]) => instants.map((i) => at[i]!).sort();

    before(async () => {
      app.clock.set(new Date('2026-11-01T09:00:00.000Z')); // the default branch: long before the range
      dated = await registerOwner(app);
      datedBusiness = await businessIdOf(app, dated.accessToken);
      for (const instant of INSTANTS) {
        app.clock.set(new Date(instant));
        const b = await createBranch(app, dated, 'dated');
        expect(b.created_at).to.equal(instant);
        at[instant] = b.id;
      }
      app.clock.set(new Date());
    });

    it('a Lagos day covers 00:00 to 23:59:59.999 Lagos time (23:00Z the day before to 22:59:59.999Z)', async () => {
      const day20 = idsAt('2026-11-19T23:00:00.000Z', '2026-11-20T12:00:00.000Z', '2026-11-20T22:59:59.999Z');
      expect(await idsFor({ start_date: '2026-11-20', end_date: '2026-11-20' })).to.deep.equal(day20);
      expect(await idsFor({ start_date: '2026-11-20', end_date: '2026-11-21' })).to.deep.equal(
        [...day20, ...idsAt('2026-11-20T23:00:00.000Z', '2026-11-21T22:59:59.999Z')].sort(),
      );
      expect(await idsFor({ start_date: '2026-11-21' })).to.deep.equal(
        idsAt('2026-11-20T23:00:00.000Z', '2026-11-21T22:59:59.999Z', '2026-11-21T23:00:00.000Z'),
      );
      const before21 = await idsFor({ end_date: '2026-11-20' });
      expect(before21).to.include.members([...day20, at['2026-11-19T22:59:59.999Z']!]);
      expect(before21).to.not.include(at['2026-11-20T23:00:00.000Z']);
      expect(before21).to.have.length(5); // with the default branch of 2026-11-01
      expect(await idsFor({ start_date: '2026-11-23', end_date: '2026-11-30' })).to.deep.equal([]);
    });

    it('date-times are inclusive at both ends, in any zone', async () => {
      expect(await idsFor({ start_date: '2026-11-19T23:00:00.000Z', end_date: '2026-11-20T23:00:00Z' })).to.deep.equal(
        idsAt('2026-11-19T23:00:00.000Z', '2026-11-20T12:00:00.000Z', '2026-11-20T22:59:59.999Z', '2026-11-20T23:00:00.000Z'),
      );
      expect(await idsFor({ start_date: '2026-11-20T00:00:00+01:00', end_date: '2026-11-20T23:59:59.999+01:00' })).to.deep.equal(
        idsAt('2026-11-19T23:00:00.000Z', '2026-11-20T12:00:00.000Z', '2026-11-20T22:59:59.999Z'),
      );
      // One instant for both ends: exactly the branch created then.
      expect(await idsFor({ start_date: '2026-11-20T22:59:59.999Z', end_date: '2026-11-20T22:59:59.999Z' })).to.deep.equal(
        idsAt('2026-11-20T22:59:59.999Z'),
      );
      // A date and a date-time together.
      expect(await idsFor({ start_date: '2026-11-20', end_date: '2026-11-20T12:00Z' })).to.deep.equal(
        idsAt('2026-11-19T23:00:00.000Z', '2026-11-20T12:00:00.000Z'),
      );
      expect(await idsFor({ start_date: '2026-11-20T12:00:00.001Z', end_date: '2026-11-20' })).to.deep.equal(idsAt('2026-11-20T22:59:59.999Z'));
    });

    it('pages through a date range with the cursor', async () => {
      const params = { start_date: '2026-11-20', end_date: '2026-11-21', limit: 2, sort_dir: 'asc' };
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = expectPage(await datedList({ ...params, cursor }));
        ids.push(...page.content.map((b) => b.id));
        if (!page.has_next) break;
        cursor = page.cursor!;
      }
      expect(ids).to.deep.equal(
        ['2026-11-19T23:00:00.000Z', '2026-11-20T12:00:00.000Z', '2026-11-20T22:59:59.999Z', '2026-11-20T23:00:00.000Z', '2026-11-21T22:59:59.999Z'].map(
          (i) => at[i]!,
        ),
      );
    });

    it('refuses start after end (400 naming start_date)', async () => {
      expect400(await datedList({ start_date: '2026-11-21', end_date: '2026-11-20' }), 'start_date');
      expect400(await datedList({ start_date: '2026-11-20T12:00:00.001Z', end_date: '2026-11-20T12:00:00Z' }), 'start_date');
      expect400(await datedList({ start_date: '2026-11-21T00:00:00+01:00', end_date: '2026-11-20' }), 'start_date');
    });

    it('refuses malformed dates (400 naming the parameter)', async () => {
      for (const bad of ['2026-13-01', '2026-02-30', '20261120', '2026-11-20T25:00:00Z', '2026-11-20T10:00:00', 'yesterday', '2026-11-2', '']) {
        expect400(await datedList({ start_date: bad }), 'start_date');
        expect400(await datedList({ end_date: bad }), 'end_date');
      }
    });
  });

  describe('GET /businesses/staff search', () => {
    it('finds members by part of a name (case-insensitive, across first and last) and by phone', async () => {
      const boss = await registerOwner(app);
      const invite = async (first_name: string, last_name: string) => {
        const phone = aPhone();
        const res = await app.request('POST', '/staff/invite', { token: boss.accessToken, body: { phone, first_name, last_name } });
        expect(res.status, res.text).to.equal(201);
        return { id: res.body.data.id as string, phone };
      };
      const chidinma = await invite('Chidinma', 'Okafor');
      const emeka = await invite('Emeka', 'Okafor');
      const tunde = await invite('Tunde', 'Bakare');
      const search = async (search: string, extra: Record<string, string> = {}) => {
        const res = await app.request('GET', `/businesses/staff${qs({ search, ...extra })}`, { token: boss.accessToken });
        expect(res.status, res.text).to.equal(200);
        return (res.body.data.content as { id: string }[]).map((m) => m.id).sort();
      };
      expect(await search('okaf')).to.deep.equal([chidinma.id, emeka.id].sort());
      expect(await search('CHIDI')).to.deep.equal([chidinma.id]);
      expect(await search('chidinma oka')).to.deep.equal([chidinma.id]);
      expect(await search('kare')).to.deep.equal([tunde.id]);
      expect(await search(tunde.phone.slice(-7))).to.deep.equal([tunde.id]);
      expect(await search(emeka.phone)).to.deep.equal([emeka.id]);
      expect(await search('okafor', { status: 'INVITED', sort_by: 'first_name', sort_dir: 'asc' })).to.deep.equal([chidinma.id, emeka.id].sort());
      expect(await search('okafor', { status: 'ACTIVE' })).to.deep.equal([]);
      // Paged search keeps the order and the cursor is bound to the search.
      const first = await app.request('GET', `/businesses/staff${qs({ search: 'okafor', sort_by: 'first_name', sort_dir: 'asc', limit: 1 })}`, { token: boss.accessToken });
      expect(first.body.data.content.map((m: { first_name: string }) => m.first_name)).to.deep.equal(['Chidinma']);
      const second = await app.request('GET', `/businesses/staff${qs({ search: 'okafor', sort_by: 'first_name', sort_dir: 'asc', limit: 1, cursor: first.body.data.cursor })}`, { token: boss.accessToken });
      expect(second.body.data.content.map((m: { first_name: string }) => m.first_name)).to.deep.equal(['Emeka']);
      expect(second.body.data.has_next).to.equal(false);
      expect400(await app.request('GET', `/businesses/staff${qs({ search: 'bakare', sort_by: 'first_name', sort_dir: 'asc', limit: 1, cursor: first.body.data.cursor })}`, { token: boss.accessToken }), 'cursor');
      expect400(await app.request('GET', `/businesses/staff${qs({ search: 'okafor', status: 'ACTIVE', sort_by: 'first_name', sort_dir: 'asc', limit: 1, cursor: first.body.data.cursor })}`, { token: boss.accessToken }), 'cursor');
      expect400(await app.request('GET', `/businesses/staff${qs({ sort_by: 'name' })}`, { token: boss.accessToken }), 'sort_by');
      expect400(await app.request('GET', `/businesses/staff${qs({ status: 'GONE' })}`, { token: boss.accessToken }), 'status');
    });
  });
});
