import * as E from 'fp-ts/lib/Either.js';
import { setPlan, showBusiness } from '../application/operator/plans.js';
import { createPartner } from '../application/partners/api-keys.js';
import { nodeCrypto } from '../adapters/crypto/node-crypto.js';
import { DataDirectoryInUse } from '../adapters/persistence/sql/embedded-postgres.js';
import { isPlan, PLANS, type Plan } from '../domain/plan.js';
import { businessJson, branchJson, staffJson } from '../adapters/http/routes/views.js';
import { loadConfig, type Config } from './config.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BackupRefused, backUpDataDir, restoreDataDir } from '../adapters/persistence/sql/embedded-backup.js';
import { JWT_KEY_FILE } from '../adapters/auth/jose-tokens.js';
import { OTP_SECRET_FILE } from '../adapters/crypto/node-crypto.js';
import { openPostgres, type Persistence } from './persistence.js';

/** Operator commands: `npm run cli -- <command>`, with the server's configuration (DATABASE_URL or DATA_DIR). */
const USAGE = `usage: npm run cli -- <command>
  --help                               this text
  migrate                              apply pending database migrations (the server also does this at start)
  plan:set <business_id> <${PLANS.join('|')}>   put a business on a plan
  business:show <business_id>          print a business with its branches and members (JSON)
  jobs:dead                            list the newest 50 dead jobs (no retries left), one JSON line each
  backup <file>                        the embedded database, JWT key and OTP secret in one file (stop the server first)
  restore <file>                       fill an empty or missing DATA_DIR from a backup (stop the server first)
  partner:create <name>                make a partner; prints its code (for merchants) and its first API key, once`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const clock = { now: () => new Date() };

type Command = (p: Persistence, args: string[]) => Promise<number>;

const DEAD_JOBS_SHOWN = 50;

const commands: Record<string, { args: number; check?: (args: string[]) => string | undefined; run: Command }> = {
  'jobs:dead': {
    args: 0,
    run: async (p) => {
      if (!p.jobs) return fail('no job queue on this database');
      await p.jobs.start({ workers: false });
      for (const j of await p.jobs.dead(DEAD_JOBS_SHOWN)) {
        const event = j.data.event as { _tag?: string } | undefined;
        // the job's data stays out: an event's may name a person (its code is gone once the job died)
        console.log(JSON.stringify({ queue: j.queue, id: j.id, type: event?._tag ?? null, error: j.error, died_at: j.diedAt.toISOString() }));
      }
      return 0;
    },
  },
  'partner:create': {
    args: 1,
    check: ([name]) => (name!.trim().length >= 1 && name!.trim().length <= 200 ? undefined : 'expected a partner name of 1 to 200 characters'),
    run: async (p, [name]) => {
      // the key is random and hashed with SHA-256: the OTP secret plays no part, so none is read here
      const r = await createPartner({ uow: p.uow, clock, crypto: nodeCrypto(Buffer.alloc(32)) })(name!.trim());
      console.log(JSON.stringify({ id: r.partner.id, name: r.partner.name, code: r.partner.code, api_key: r.key, api_key_scopes: r.apiKey.scopes }, null, 2));
      console.error('Store the API key now: it is not shown again (only its hash is kept).');
      return 0;
    },
  },
  migrate: { args: 0, run: async () => (console.log('migrations applied'), 0) },
  'plan:set': {
    args: 2,
    check: ([id, plan]) => (UUID.test(id!) && isPlan(plan!) ? undefined : `expected a business id and one of ${PLANS.join(', ')}`),
    run: async (p, [id, plan]) => {
      const r = await setPlan({ uow: p.uow, clock })(id!, plan as Plan);
      if (E.isLeft(r)) return fail(`no business ${id}`);
      console.log(`business ${r.right.id} (${r.right.name}) is now on ${r.right.plan}`);
      return 0;
    },
  },
  'business:show': {
    args: 1,
    check: ([id]) => (UUID.test(id!) ? undefined : 'expected a business id (UUID)'),
    run: async (p, [id]) => {
      const r = await showBusiness({ uow: p.uow })(id!);
      if (E.isLeft(r)) return fail(`no business ${id}`);
      // the API's own views: snake_case, naira, ISO dates, as GET /businesses/me shows them
      const { business, branches, members } = r.right;
      console.log(JSON.stringify({ business: businessJson(business), branches: branches.map(branchJson), members: members.map(staffJson) }, null, 2));
      return 0;
    },
  },
};

/**
 * Commands on the embedded data directory itself, run without opening the database for the
 * application (docs/adr/0067). On PostgreSQL they refuse: pg_dump and base backups do it there (README).
 */
const dataDirCommands: Record<string, (config: Config, file: string) => Promise<number>> = {
  async backup(config, file) {
    const { bytes, files } = await backUpDataDir(config.DATA_DIR, resolve(file), SECRET_FILES);
    console.log(`backed up ${config.DATA_DIR} to ${file}: the database (${(bytes / 1048576).toFixed(1)} MB compressed)${files.length ? ` and ${files.join(', ')}` : ''}`);
    const missing = SECRET_FILES.filter((f) => !files.includes(f));
    if (missing.length) console.error(`Not in the backup: ${missing.join(', ')} (not in ${config.DATA_DIR}; set by JWT_PRIVATE_KEY / OTP_SECRET?): keep those with the backup.`);
    console.error('The file holds the signing key and the OTP secret: store it as a secret.');
    return 0;
  },
  async restore(config, file) {
    if (!existsSync(file)) return fail(`no such file: ${file}`);
    const { files } = await restoreDataDir(resolve(file), config.DATA_DIR);
    console.log(`restored ${file} into ${config.DATA_DIR}: the database${files.length ? ` and ${files.join(', ')}` : ''}; start the server to apply any newer migrations`);
    return 0;
  },
};
const SECRET_FILES = [JWT_KEY_FILE, OTP_SECRET_FILE];

const usage = (why?: string) => {
  if (why) console.error(why);
  console.error(USAGE);
  return 2;
};
const fail = (why: string) => {
  console.error(why);
  return 1;
};

const main = async ([name, ...args]: string[]): Promise<number> => {
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return 0;
  }
  const onDataDir = name ? dataDirCommands[name] : undefined;
  if (onDataDir) {
    if (args.length !== 1 || !args[0]!.trim()) return usage(`${name} needs one file`);
    const config = loadConfig();
    if (config.DATABASE_URL) return fail(`${name} is for the embedded database (DATA_DIR); on PostgreSQL use pg_dump or base backups with WAL archiving (README, Operations)`);
    try {
      return await onDataDir(config, args[0]!);
    } catch (e) {
      if (e instanceof DataDirectoryInUse) return fail(`${e.message}\nThe embedded database allows one process at a time.`);
      if (e instanceof BackupRefused) return fail(e.message);
      throw e;
    }
  }
  const command = name ? commands[name] : undefined;
  if (!command || args.length !== command.args) return usage();
  const problem = command.check?.(args);
  if (problem) return usage(problem); // before opening the database: a typo costs nothing
  const config = loadConfig();
  let persistence: Persistence & { embedded: boolean };
  try {
    persistence = await openPostgres({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolMax: 2,
      log: (message) => console.error(message),
      jobs: { poolMax: 1, pollingIntervalSeconds: 2, concurrency: 1, maintenanceIntervalSeconds: 60, stopTimeoutMs: 1_000 },
    });
  } catch (e) {
    if (e instanceof DataDirectoryInUse) return fail(`${e.message}\nThe embedded database allows one process at a time.`);
    throw e;
  }
  try {
    return await command.run(persistence, args);
  } finally {
    await persistence.close();
  }
};

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
