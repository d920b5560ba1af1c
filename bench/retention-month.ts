/**
 * `npx tsx bench/retention-month.ts`: a month of the bench's traffic left behind, then pruned
 * (docs/adr/0068). On the bench's database (BENCH_DATABASE_URL, seeded and migrated by `npm run bench`),
 * it writes what a month of the seed's scale leaves in the tables retention prunes: 400,000 delivered
 * outbox events (a sale's SaleRecorded and StockChanged, 200,000 sales), 200,000 answered
 * Idempotency-Keys, 20,000 ended sessions with their refresh tokens, 20,000 sign-in codes and 50,000
 * settled webhook deliveries, all 8 to 38 days old; then runs the retention task (the application's
 * `pruneOldRows`, as the periodic task does, batches of RETENTION_BATCH) until a run deletes nothing,
 * timing it. Run `npm run bench -- --quick --only products-page1,sales-random` before and after to
 * compare the hot paths. `--keep`: write the rows and stop (to bench with them in place).
 */
import pg from 'pg';
import { loadConfig } from '../bootstrap/config.js';
import { openPostgres } from '../bootstrap/persistence.js';
import { retentionOptions } from '../bootstrap/jobs.js';
import { pruneOldRows } from '../application/housekeeping/prune-old-rows.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/bizops_bench';
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

const fill = async () => {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ user_id: string; business_id: string }>('select user_id, business_id from memberships order by created_at limit 1');
    if (!rows[0]) throw new Error(`${DATABASE_URL} has no member: run npm run bench first (it seeds and migrates)`);
    const { user_id: userId, business_id: businessId } = rows[0];
    // ages spread over 8 to 38 days ago: all past every default age
    const age = `now() - interval '8 days' - (random() * interval '30 days')`;
    const started = Date.now();
    await client.query(
      `insert into outbox (id, type, business_id, payload, occurred_at, attempts, next_attempt_at, delivered_at, delivered_to)
       select gen_random_uuid(), 'StockChanged', $1, '{"_tag":"StockChanged"}'::jsonb, t, 1, null, t + interval '1 second', '{}'
       from (select ${age} as t from generate_series(1, 400000)) s`,
      [businessId],
    );
    await client.query(
      `insert into idempotency_keys (business_id, key, request_hash, response_status, response_body, created_at)
       select $1, 'month-' || g, 'h', 201, '{}', ${age} from generate_series(1, 200000) g`,
      [businessId],
    );
    await client.query(
      `with s as (insert into sessions (id, user_id, created_at, last_used_at, expires_at, revoked_at)
         select gen_random_uuid(), $1, t - interval '30 days', t, t, null from (select ${age} as t from generate_series(1, 20000)) x returning id, expires_at)
       insert into refresh_tokens (id, family_id, user_id, token_hash, expires_at, created_at)
       select gen_random_uuid(), s.id, $1, 'month-' || s.id, s.expires_at, s.expires_at - interval '30 days' from s`,
      [userId],
    );
    await client.query(
      `insert into otp_codes (id, identifier_key, purpose, code_hash, wrong_tries, consumed_at, created_at, expires_at)
       select gen_random_uuid(), 'phone:+2348' || lpad(g::text, 9, '0'), 'SIGN_IN', 'h', 0, t, t, t + interval '10 minutes'
       from (select g, ${age} as t from generate_series(1, 20000) g) x`,
    );
    const partner = (await client.query<{ id: string }>(`insert into partners (id, name, code, status, created_at, updated_at) values (gen_random_uuid(), 'Month', 'MONTH' || floor(random() * 100000)::int, 'ACTIVE', now(), now()) returning id`)).rows[0]!.id;
    const endpoint = (
      await client.query<{ id: string }>(
        `insert into webhook_endpoints (id, partner_id, url, events, secret, status, created_at, updated_at) values (gen_random_uuid(), $1, 'https://hooks.example.com/m', '{sale.created}', 'whsec_x', 'ACTIVE', now(), now()) returning id`,
        [partner],
      )
    ).rows[0]!.id;
    await client.query(
      `insert into webhook_deliveries (id, partner_id, endpoint_id, message_id, event, outbox_id, payload, status, attempts, last_attempt_at, response_code, duration_ms, created_at)
       select gen_random_uuid(), $1, $2, 'msg_' || g, 'sale.created', gen_random_uuid(), '{}', 'SUCCEEDED', 1, t, 200, 20, t from (select g, ${age} as t from generate_series(1, 50000) g) x`,
      [partner, endpoint],
    );
    await client.query('analyze outbox, idempotency_keys, sessions, refresh_tokens, otp_codes, webhook_deliveries');
    log(`wrote a month of rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await client.end();
  }
};

const prune = async () => {
  const config = loadConfig({ ...process.env, DATABASE_URL });
  const persistence = await openPostgres({ databaseUrl: DATABASE_URL, dataDir: '/tmp', poolMax: 2, log: () => undefined });
  try {
    const run = pruneOldRows({ uow: persistence.uow, idempotency: persistence.idempotency, clock: { now: () => new Date() } });
    const options = retentionOptions(config);
    const started = Date.now();
    const total: Record<string, number> = {};
    let runs = 0;
    for (;;) {
      const t = Date.now();
      const report = await run(options);
      runs++;
      for (const [k, n] of Object.entries(report)) total[k] = (total[k] ?? 0) + n;
      const deleted = Object.values(report).reduce((a, b) => a + b, 0);
      log(`run ${runs}: ${deleted} rows in ${Date.now() - t} ms ${JSON.stringify(report)}`);
      if (deleted === 0) break;
    }
    log(`pruned in ${((Date.now() - started) / 1000).toFixed(1)} s over ${runs} runs (the periodic task makes one a minute): ${JSON.stringify(total)}`);
  } finally {
    await persistence.close();
  }
};

await fill();
if (!process.argv.includes('--keep')) await prune();
process.exit(0);
