/**
 * One write model per table (docs/adr/0019): the same writes through the ORM's unit of work
 * (`em.persist`, flushed at commit), through the ORM with a flush after every add (what reading
 * one's own writes would need), and as immediate SQL on the transaction (`em.execute`).
 *
 *   npx tsx bench/write-model.ts            # DATABASE_URL, default postgres://postgres@127.0.0.1:5432/bizops_write_model
 *   npx tsx bench/write-model.ts --n 300    # operations per way and case (default 300)
 *
 * The database is created when missing and its `public` schema wiped. Operations run one at a time
 * (one client), each in its own transaction, after a warm-up; the ways take turns in rounds. Node
 * CPU per operation (the ORM's own work: change sets, hydration, SQL building) is the steadier
 * number on a shared machine; wall times include the database and whoever else runs.
 */
import { randomUUID } from 'node:crypto';
import { EntitySchema } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Branch, Business, Membership, User } from '../domain/business.js';
import type { OtpCode } from '../domain/otp.js';
import type { Product } from '../domain/product.js';
import { DEFAULT_VAT_SETTINGS } from '../domain/vat.js';
import { DEFAULT_INVOICE_SETTINGS } from '../domain/invoice.js';
import { migrateDatabase } from '../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from '../bootstrap/migrations.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const N = Number(option('n', '300'));
const ROUNDS = 3;
const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bizops_write_model';

// The mappings the ORM way needs (the application no longer has them: every table is written by SQL).
const uuid = { type: 'uuid' } as const;
const text = { type: 'text' } as const;
const optionalText = { type: 'text', nullable: true } as const;
const time = { type: 'Date', columnType: 'timestamptz' } as const;
const optionalTime = { type: 'Date', columnType: 'timestamptz', nullable: true } as const;
const int = { type: 'integer' } as const;
const optionalInt = { type: 'integer', nullable: true } as const;
const UserSchema = new EntitySchema<User>({
  name: 'User', tableName: 'users',
  properties: { id: { ...uuid, primary: true }, phone: optionalText, email: optionalText, firstName: text, lastName: text, verifiedAt: optionalTime, createdAt: time, updatedAt: time },
});
const BusinessSchema = new EntitySchema<Business>({
  name: 'Business', tableName: 'businesses',
  properties: {
    id: { ...uuid, primary: true }, name: text, phone: optionalText, email: optionalText, address: optionalText, category: optionalText, logoUrl: optionalText,
    plan: text, currency: text, timezone: text, createdAt: time, updatedAt: time,
    vatRegistered: { type: 'boolean' }, tin: optionalText, vatRate: int, pricesIncludeVat: { type: 'boolean' },
    paymentTermsDays: int, bankName: optionalText, accountNumber: optionalText, accountName: optionalText, invoiceFooter: optionalText,
  },
});
const BranchSchema = new EntitySchema<Branch>({
  name: 'Branch', tableName: 'branches',
  properties: { id: { ...uuid, primary: true }, businessId: uuid, name: text, address: optionalText, phone: optionalText, isDefault: { type: 'boolean' }, archivedAt: optionalTime, createdAt: time, updatedAt: time },
});
const MembershipSchema = new EntitySchema<Membership>({
  name: 'Membership', tableName: 'memberships',
  properties: { id: { ...uuid, primary: true }, businessId: uuid, userId: uuid, role: text, branchId: { ...uuid, nullable: true }, status: text, createdAt: time, updatedAt: time },
});
const OtpCodeSchema = new EntitySchema<OtpCode>({
  name: 'OtpCode', tableName: 'otp_codes',
  properties: { id: { ...uuid, primary: true }, identifierKey: text, purpose: text, codeHash: text, wrongTries: int, consumedAt: optionalTime, createdAt: time, expiresAt: time, requestedBy: optionalText },
});
const ProductSchema = new EntitySchema<Product>({
  name: 'Product', tableName: 'products',
  properties: {
    id: { ...uuid, primary: true }, businessId: uuid, name: text, sku: text, price: { type: 'bigint' }, costPrice: { type: 'bigint', nullable: true }, quantity: int,
    category: optionalText, type: text, lowStockThreshold: optionalInt, barcode: optionalText, unit: optionalText, archivedAt: optionalTime, createdAt: time, updatedAt: time,
    vatExempt: { type: 'boolean' },
  },
});

// ------------------------------------------------------------------------------------------ the rows

const now = () => new Date();
const aUser = (): User => {
  const t = now();
  return { id: randomUUID(), phone: null, email: `${randomUUID()}@example.com` as never, firstName: 'Ada', lastName: 'Obi', verifiedAt: null, createdAt: t, updatedAt: t };
};
const aBusiness = (): Business => {
  const t = now();
  return { id: randomUUID(), name: 'Ada Stores', phone: null, email: null, address: null, category: null, logoUrl: null, plan: 'FREE', currency: 'NGN', timezone: 'Africa/Lagos', createdAt: t, updatedAt: t, ...DEFAULT_VAT_SETTINGS, ...DEFAULT_INVOICE_SETTINGS };
};
const aBranch = (businessId: string, isDefault = false): Branch => {
  const t = now();
  return { id: randomUUID(), businessId, name: 'Branch', address: null, phone: null, isDefault, archivedAt: null, createdAt: t, updatedAt: t };
};
const aMembership = (businessId: string, userId: string, branchId: string): Membership => {
  const t = now();
  return { id: randomUUID(), businessId, userId, role: 'BUSINESS_OWNER', branchId, status: 'ACTIVE', createdAt: t, updatedAt: t };
};
const aCode = (): OtpCode => {
  const t = now();
  return { id: randomUUID(), identifierKey: `email:${randomUUID()}`, purpose: 'SIGN_IN', codeHash: 'hash', wrongTries: 0, consumedAt: null, createdAt: t, expiresAt: new Date(t.getTime() + 600_000), requestedBy: null };
};
const aProduct = (businessId: string): Product => {
  const t = now();
  return {
    id: randomUUID(), businessId, name: 'Rice 50kg', sku: randomUUID(), price: 4_500_000 as never, costPrice: null, quantity: 0, category: 'Food', type: 'PRODUCT',
    lowStockThreshold: null, barcode: null, unit: null, vatExempt: false, archivedAt: null, createdAt: t, updatedAt: t,
  };
};

// ---------------------------------------------------------------------------------- the SQL writes

const sql = {
  user: (em: EntityManager, u: User) =>
    em.execute('insert into users (id, phone, email, first_name, last_name, verified_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)', [
      u.id, u.phone, u.email, u.firstName, u.lastName, u.verifiedAt, u.createdAt, u.updatedAt,
    ]),
  business: (em: EntityManager, b: Business) =>
    em.execute(
      'insert into businesses (id, name, phone, email, address, category, logo_url, plan, currency, timezone, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [b.id, b.name, b.phone, b.email, b.address, b.category, b.logoUrl, b.plan, b.currency, b.timezone, b.createdAt, b.updatedAt],
    ),
  branch: (em: EntityManager, b: Branch) =>
    em.execute('insert into branches (id, business_id, name, address, phone, is_default, archived_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      b.id, b.businessId, b.name, b.address, b.phone, b.isDefault, b.archivedAt, b.createdAt, b.updatedAt,
    ]),
  membership: (em: EntityManager, m: Membership) =>
    em.execute('insert into memberships (id, business_id, user_id, role, branch_id, status, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)', [
      m.id, m.businessId, m.userId, m.role, m.branchId, m.status, m.createdAt, m.updatedAt,
    ]),
  code: (em: EntityManager, c: OtpCode) =>
    em.execute('insert into otp_codes (id, identifier_key, purpose, code_hash, wrong_tries, consumed_at, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?)', [
      c.id, c.identifierKey, c.purpose, c.codeHash, c.wrongTries, c.consumedAt, c.createdAt, c.expiresAt,
    ]),
  product: (em: EntityManager, p: Product) =>
    em.execute(
      `insert into products (id, business_id, name, sku, price, cost_price, quantity, category, type, low_stock_threshold, barcode, unit, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (business_id, lower(sku)) do nothing returning id`,
      [p.id, p.businessId, p.name, p.sku, p.price, p.costPrice, p.quantity, p.category, p.type, p.lowStockThreshold, p.barcode, p.unit, p.createdAt, p.updatedAt],
    ),
};

type Way = 'orm (flush at commit)' | 'orm (flush per add)' | 'sql (immediate)';
const WAYS: Way[] = ['orm (flush at commit)', 'orm (flush per add)', 'sql (immediate)'];

/** Adds a row the way `way` does; schema and SQL writer for the same row. */
const adder = (way: Way) => async <T extends object>(em: EntityManager, schema: EntitySchema<T>, row: T, write: (em: EntityManager, row: T) => Promise<unknown>) => {
  if (way === 'sql (immediate)') return void (await write(em, row));
  em.persist(em.create(schema, row as never));
  if (way === 'orm (flush per add)') await em.flush();
};

interface Case {
  readonly name: string;
  readonly run: (orm: MikroORM, way: Way, tenant: { businessId: string; userId: string }) => Promise<void>;
}

const CASES: Case[] = [
  {
    name: 'registration (user, business, branch, membership, sign-in code; plus the read of the new branch)',
    run: (orm, way) =>
      orm.em.fork().transactional(async (em) => {
        const add = adder(way);
        const user = aUser();
        const business = aBusiness();
        const branch = aBranch(business.id, true);
        await add(em, UserSchema, user, sql.user);
        await add(em, BusinessSchema, business, sql.business);
        await add(em, BranchSchema, branch, sql.branch);
        await add(em, MembershipSchema, aMembership(business.id, user.id, branch.id), sql.membership);
        await add(em, OtpCodeSchema, aCode(), sql.code);
        // a read of one's own write, as raw SQL (the hot-path reads are): seen only when flushed
        await em.execute('select id from branches where business_id = ? and id = ?', [business.id, branch.id]);
      }),
  },
  {
    name: 'branch creation',
    run: (orm, way, t) => orm.em.fork().transactional((em) => adder(way)(em, BranchSchema, aBranch(t.businessId), sql.branch)),
  },
  {
    name: 'product create',
    run: (orm, way, t) => orm.em.fork().transactional((em) => adder(way)(em, ProductSchema, aProduct(t.businessId), sql.product)),
  },
  {
    name: 'user profile save (load by id, change the name, save)',
    run: (orm, way, t) =>
      orm.em.fork().transactional(async (em) => {
        if (way === 'sql (immediate)') {
          const rows = await em.execute<{ first_name: string }[]>('select id, first_name from users where id = ?', [t.userId]);
          await em.execute('update users set first_name = ?, updated_at = ? where id = ?', [`${rows[0]!.first_name.slice(0, 3)}${Math.random()}`, now(), t.userId]);
          return;
        }
        const u = (await em.findOne(UserSchema, { id: t.userId }))!;
        u.firstName = `${u.firstName.slice(0, 3)}${Math.random()}`;
        u.updatedAt = now();
        if (way === 'orm (flush per add)') await em.flush();
      }),
  },
];

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const main = async () => {
  const url = new URL(URL_);
  const admin = new pg.Client({ connectionString: `${url.protocol}//${url.username}${url.password ? `:${url.password}` : ''}@${url.host}/postgres` });
  await admin.connect();
  const db = url.pathname.slice(1);
  const exists = await admin.query('select 1 from pg_database where datname = $1', [db]);
  if (exists.rowCount === 0) await admin.query(`create database "${db}"`);
  await admin.end();
  const wipe = new pg.Client({ connectionString: URL_ });
  await wipe.connect();
  await wipe.query('drop schema if exists public cascade; create schema public');
  await wipe.end();

  await migrateDatabase({ databaseUrl: URL_, log: () => undefined, migrations: MIGRATIONS });
  // the ORM way needs its mappings discovered: an ORM with them, on the migrated database
  const { MikroORM, PostgreSqlDriver } = await import('@mikro-orm/postgresql');
  const mapped = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: URL_,
    entities: [UserSchema, BusinessSchema, BranchSchema, MembershipSchema, OtpCodeSchema, ProductSchema],
    discovery: { disableDynamicFileAccess: true },
    pool: { min: 1, max: 4 },
    allowGlobalContext: false,
  });
  const tenantUser = aUser();
  const tenantBusiness = aBusiness();
  await mapped.em.fork().transactional(async (em) => {
    await sql.user(em, tenantUser);
    await sql.business(em, tenantBusiness);
  });
  const tenant = { businessId: tenantBusiness.id, userId: tenantUser.id };

  console.log(`write model: ${N} operations per way and case, ${ROUNDS} rounds, PostgreSQL ${url.host}, node ${process.version}`);
  for (const c of CASES) {
    const times = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
    const cpu = new Map<Way, number>(WAYS.map((w) => [w, 0]));
    for (const way of WAYS) for (let i = 0; i < 30; i++) await c.run(mapped, way, tenant); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const way of round % 2 === 0 ? WAYS : [...WAYS].reverse()) {
        for (let i = 0; i < N / ROUNDS; i++) {
          const started = performance.now();
          const cpuStarted = process.cpuUsage();
          await c.run(mapped, way, tenant);
          const used = process.cpuUsage(cpuStarted);
          times.get(way)!.push(performance.now() - started);
          cpu.set(way, cpu.get(way)! + used.user + used.system);
        }
      }
    }
    console.log(`\n${c.name}`);
    console.log('| way | ops/s | mean ms | p50 ms | p95 ms | node CPU µs/op |\n| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const [way, xs] of times) {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      console.log(`| ${way} | ${Math.round(1000 / mean)} | ${mean.toFixed(2)} | ${percentile(xs, 50).toFixed(2)} | ${percentile(xs, 95).toFixed(2)} | ${Math.round(cpu.get(way)! / xs.length)} |`);
    }
  }
  await mapped.close();
};

await main();
