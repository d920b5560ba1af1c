import { expect } from 'chai';
import pg from 'pg';
import { migrate, openOrm } from '../../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from '../../bootstrap/migrations.js';
import { freshDatabaseUrl } from '../support/database.js';

// Issue 20 (docs/adr/0035): the schema stays ready for Citus. Every tenant table (any table with a
// business_id column, read from the catalog, so tables added later are checked too) is distributed
// by business_id, and Citus requires business_id in its primary key and in every unique key.

/** Tables with a business_id that are not distributed, and why (docs/adr/0035). Nothing else may be. */
const NOT_DISTRIBUTED: Record<string, string> = {
  outbox: 'coordinator-local: the relay reads it across tenants in order; sign-in code events have no business',
  memberships: 'reference table: the member check finds a user\'s one current business (unique on user_id) on any node',
};

interface Finding { table: string; problem: string }

/** What keeps the tables of `schema` from being distributed by business_id. */
const tenantKeyFindings = async (client: pg.Client, schema: string): Promise<Finding[]> => {
  const tables = await client.query<{ table_name: string; is_nullable: string }>(
    `select c.table_name, c.is_nullable from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
     where c.table_schema = $1 and c.column_name = 'business_id' order by 1`,
    [schema],
  );
  // Unique constraints and unique indexes alike (an index made with create unique index is no constraint).
  const keys = await client.query<{ table_name: string; name: string; is_primary: boolean; has_business_id: boolean }>(
    `select t.relname as table_name, i.relname as name, x.indisprimary as is_primary,
            exists (select 1 from unnest(x.indkey) k join pg_attribute a on a.attrelid = t.oid and a.attnum = k where a.attname = 'business_id') as has_business_id
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = $1 and x.indisunique`,
    [schema],
  );
  const findings: Finding[] = [];
  for (const { table_name: table, is_nullable } of tables.rows) {
    if (schema === 'public' && NOT_DISTRIBUTED[table]) continue;
    const own = keys.rows.filter((k) => k.table_name === table);
    if (is_nullable === 'YES') findings.push({ table, problem: 'business_id is nullable' });
    if (!own.some((k) => k.is_primary)) findings.push({ table, problem: 'no primary key' });
    for (const k of own.filter((k) => !k.has_business_id)) findings.push({ table, problem: `${k.is_primary ? 'primary key' : 'unique key'} ${k.name} lacks business_id` });
  }
  return findings;
};

describe('tenant tables are ready for Citus (docs/adr/0035)', function () {
  this.timeout(60_000);
  let client: pg.Client;
  before(async () => {
    const url = await freshDatabaseUrl();
    const orm = await openOrm({ databaseUrl: url, log: () => undefined, migrations: MIGRATIONS });
    await migrate(orm);
    await orm.close();
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  after(async () => client.end());

  it('every table with business_id has it in its primary key and in every unique key', async () => {
    expect(await tenantKeyFindings(client, 'public')).to.deep.equal([]);
  });

  it('the tables kept out of distribution exist, and they are the only ones', async () => {
    const { rows } = await client.query<{ table_name: string }>(
      `select table_name from information_schema.columns where table_schema = 'public' and column_name = 'business_id' and table_name = any($1)`,
      [Object.keys(NOT_DISTRIBUTED)],
    );
    expect(rows.map((r) => r.table_name).sort()).to.deep.equal(Object.keys(NOT_DISTRIBUTED).sort());
  });

  it('finds a key without business_id, a unique index without it, a nullable business_id and a missing primary key', async () => {
    await client.query(`drop schema if exists citus_check cascade; create schema citus_check;
      create table citus_check.a (id uuid primary key, business_id uuid not null);
      create table citus_check.b (id uuid, business_id uuid not null, code text, primary key (id, business_id));
      create unique index b_code on citus_check.b (lower(code)) where code is not null;
      create table citus_check.c (id uuid, business_id uuid);
      create table citus_check.d (id uuid, business_id uuid not null, code text, primary key (business_id, id), unique (code, business_id))`);
    try {
      expect(await tenantKeyFindings(client, 'citus_check')).to.deep.equal([
        { table: 'a', problem: 'primary key a_pkey lacks business_id' },
        { table: 'b', problem: 'unique key b_code lacks business_id' },
        { table: 'c', problem: 'business_id is nullable' },
        { table: 'c', problem: 'no primary key' },
      ]);
    } finally {
      await client.query('drop schema citus_check cascade');
    }
  });
});
