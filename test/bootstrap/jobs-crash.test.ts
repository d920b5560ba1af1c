import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { freshDatabaseUrl } from '../support/database.js';
import { entryPoint, exited, post, spawnNode, startServer } from '../support/server-process.js';

const until = async <A>(what: string, probe: () => A | undefined | Promise<A | undefined>, ms = 30_000): Promise<A> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const found = await probe();
    if (found !== undefined) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sentTo = (file: string, to: string) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { to: string; text: string }).filter((m) => m.to === to) : [];
const alive = (s: { child: { exitCode: number | null; signalCode: string | null } }) => s.child.exitCode === null && s.child.signalCode === null;

/** `npm run worker`, as a child process. */
const startWorker = (env: Record<string, string>) => {
  const child = spawnNode(entryPoint('bootstrap/worker.ts'), { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  child.stdout!.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
  return { child, lines };
};

const JOB_ENV = { JOBS_RETRY_DELAY_SECONDS: '1', JOBS_POLL_SECONDS: '1', JOBS_MAINTENANCE_SECONDS: '1', JOBS_EXPIRE_SECONDS: '4', OUTBOX_POLL_MS: '200' };

describe('jobs across processes', function () {
  this.timeout(180_000);
  const onServer = Boolean(process.env.TEST_DATABASE_URL);

  it('kill -9 while the provider hangs on a committed code: after the restart the code goes out once, and signs in', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-jobs-crash-'));
    // A FIFO nobody reads: opening it to append blocks, as a provider that never answers.
    const hanging = join(dataDir, 'hang.fifo');
    execFileSync('mkfifo', [hanging]);
    const file = join(dataDir, 'messages.jsonl');
    const databaseUrl = onServer ? await freshDatabaseUrl() : '';
    const env = { ...JOB_ENV, DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
    const phone = '+2348039990456';
    const first = await startServer({ ...env, MESSAGES_FILE: hanging });
    let second: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const reg = await post(first.base, '/auth/register', { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Hang Stores' });
      expect(reg.status, 'the request does not wait for the provider').to.equal(201);
      if (onServer) {
        const db = new pg.Client({ connectionString: databaseUrl });
        await db.connect();
        try {
          await until('the job running', async () => ((await db.query("select 1 from pgboss.job where name = 'messages' and state = 'active'")).rowCount ? true : undefined));
        } finally {
          await db.end();
        }
      } else await sleep(1_500); // the job is taken at once: its worker was woken by the enqueue
      first.child.kill('SIGKILL');
      await exited(first.child);

      second = await startServer({ ...env, MESSAGES_FILE: file });
      // the run cut short expires (JOBS_EXPIRE_SECONDS), is failed by the upkeep and retried
      const [message] = await until('the code sent after the restart', () => (sentTo(file, phone).length > 0 ? sentTo(file, phone) : undefined));
      await sleep(3_000);
      expect(sentTo(file, phone), 'sent once').to.have.length(1);
      const code = /code is (\d{6})/.exec(message!.text)![1]!;
      expect((await post(second.base, '/auth/verify-otp', { phone, otp: code })).status).to.equal(200);
    } finally {
      if (alive(first)) first.child.kill('SIGKILL');
      if (second && alive(second)) second.child.kill('SIGTERM');
      const code = second ? await exited(second.child) : 0;
      rmSync(dataDir, { recursive: true, force: true });
      expect(code, 'a graceful stop').to.equal(0);
    }
  });

  it('WORKERS=off: the server only enqueues, and `npm run worker` sends (PostgreSQL); on the embedded database the worker refuses the data directory in use', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-jobs-split-'));
    const file = join(dataDir, 'messages.jsonl');
    const env = { ...JOB_ENV, DATA_DIR: dataDir, MESSAGES_FILE: file, DATABASE_URL: onServer ? await freshDatabaseUrl() : '' };
    const server = await startServer({ ...env, WORKERS: 'off' });
    let worker: ReturnType<typeof startWorker> | undefined;
    try {
      const phone = '+2348039990457';
      expect((await post(server.base, '/auth/register', { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Split Stores' })).status).to.equal(201);
      await sleep(2_500);
      expect(sentTo(file, phone), 'no worker in the server').to.have.length(0);
      worker = startWorker(env);
      if (!onServer) {
        expect(await exited(worker.child)).to.equal(1);
        expect(worker.lines.join('\n')).to.include('in use by process');
        return;
      }
      await until('the worker sends the code', () => (sentTo(file, phone).length > 0 ? true : undefined));
      const other = '+2348039990458';
      expect((await post(server.base, '/auth/register', { phone: other, first_name: 'Bo', last_name: 'Obi', business_name: 'Split Two' })).status).to.equal(201);
      await until('the code enqueued while the worker runs', () => (sentTo(file, other).length > 0 ? true : undefined));
      worker.child.kill('SIGTERM');
      expect(await exited(worker.child), 'the worker stops gracefully').to.equal(0);
      expect(worker.lines.some((l) => l.includes('"stopped"'))).to.equal(true);
      expect([sentTo(file, phone).length, sentTo(file, other).length], 'each once').to.deep.equal([1, 1]);
    } finally {
      if (worker && worker.child.exitCode === null) worker.child.kill('SIGKILL');
      server.child.kill('SIGTERM');
      const code = await exited(server.child);
      rmSync(dataDir, { recursive: true, force: true });
      expect(code).to.equal(0);
    }
  });
});
