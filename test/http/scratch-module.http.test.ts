import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import pino from 'pino';
import { doc, shape, uuid } from '../../adapters/http/codecs.js';
import { failure, failuresOf, moduleFailures, type FailureOf } from '../../adapters/http/failure-codes.js';
import { successOf } from '../../adapters/http/failures.js';
import { errorCodes } from '../../adapters/http/problem.js';
import { route } from '../../adapters/http/route.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import type { NotFound } from '../../application/business/errors.js';
import type { JobQueue, PeriodicTask } from '../../application/ports/job-queue.js';
import { loadConfig } from '../../bootstrap/config.js';
import { composeJobs } from '../../bootstrap/jobs.js';
import { MODULES } from '../../bootstrap/modules/index.js';
import { defineModule } from '../../bootstrap/modules/module.js';
import { inMemory } from '../../bootstrap/persistence.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// docs/adr/0062: a new module is its own files and one line in MODULES. This module exists only in this
// file: added to the list, its routes are served and documented, its failure answers its own code with
// its own status, its migration runs, and its periodic task and subscriber are registered. Nothing
// shared was edited for it.

/** The module's migration (a real module's lives in adapters/persistence/sql/migrations/). */
class Migration29991231000000_scratch extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table scratch_notes (id uuid primary key, text text not null);');
  }
}

/** Its failure: its own tag, with its own error code. */
type ScratchNoteLocked = { readonly _tag: 'ScratchNoteLocked'; readonly until: string };
const { codes, problem } = errorCodes({ SCRATCH_NOTE_LOCKED: 423 });
const SCRATCH_FAILURES = moduleFailures<ScratchNoteLocked>()(codes, {
  ScratchNoteLocked: failure(['SCRATCH_NOTE_LOCKED'], (f) => problem('SCRATCH_NOTE_LOCKED', `This note is locked until ${f.until}.`)),
});

const LOCKED = '00000000-0000-4000-8000-000000000001';
const MISSING = '00000000-0000-4000-8000-000000000002';
/** Its use case: a note, unless it is missing or locked. */
const getNote = async (id: string): Promise<E.Either<NotFound | ScratchNoteLocked, { id: string }>> =>
  id === MISSING ? E.left({ _tag: 'NotFound' }) : id === LOCKED ? E.left({ _tag: 'ScratchNoteLocked', until: 'tomorrow' }) : E.right({ id });

const ran: string[] = [];
const scratchModule = defineModule({
  name: 'scratch',
  folders: [],
  repositories: [],
  failures: [SCRATCH_FAILURES],
  migrations: [{ name: 'Migration29991231000000_scratch', load: async () => Migration29991231000000_scratch }],
  useCases: () => ({ getNote }),
  routes: (uc) => [
    route({
      method: 'get',
      path: '/scratch-notes/:id',
      operationId: 'getScratchNote',
      tag: 'Scratch',
      summary: 'A scratch note',
      description: 'Public.',
      access: 'public',
      rateLimit: 'none',
      success: { status: 200, description: 'The note', data: shape('ScratchNote', { id: uuid, text: doc('string', { type: 'string' }) }) },
      failures: failuresOf<FailureOf<typeof uc.getNote>>({ NotFound: true, ScratchNoteLocked: true }),
      errors: [],
      handler: async ({ params }) => ({ status: 200, message: 'A scratch note', data: { ...successOf(await uc.getNote(params.id), 'sale'), text: 'hello' } }),
    }),
  ],
  subscribers: () => [{ name: 'scratch-subscriber', handles: ['SaleRecorded'], handle: async () => void ran.push('event') }],
  periodicTasks: (_, retry) => [{ name: 'scratch-task', run: async () => void ran.push('task'), ...retry }],
});

describe('a module added only through its manifest (docs/adr/0062)', function () {
  this.timeout(120_000);
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ modules: [...MODULES, scratchModule] });
  });
  after(async () => t.close());

  it('serves its route and answers its use case', async () => {
    const ok = await t.request('GET', '/scratch-notes/00000000-0000-4000-8000-000000000003');
    expect(ok.status).to.equal(200);
    expect(ok.body.data).to.deep.equal({ id: '00000000-0000-4000-8000-000000000003', text: 'hello' });
  });

  it('answers its failure with its own error code and status, and a shared failure as everywhere', async () => {
    const locked = await t.request('GET', `/scratch-notes/${LOCKED}`);
    expect(locked.status).to.equal(423);
    expect(locked.body.error).to.include({ code: 'SCRATCH_NOTE_LOCKED', detail: 'This note is locked until tomorrow.', status: 423 });
    const missing = await t.request('GET', `/scratch-notes/${MISSING}`);
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.include({ code: 'RESOURCE_NOT_FOUND', detail: 'No such sale.' });
  });

  it('documents its operation, its codes under their statuses, and its code among every error code', () => {
    const doc = t.openApi as {
      paths: Record<string, Record<string, { 'x-error-codes': string[]; responses: Record<string, { description: string }> }>>;
      components: { schemas: { Problem: { properties: { code: { enum: string[] } } } } };
    };
    const op = doc.paths['/scratch-notes/{id}']!.get!;
    expect(op['x-error-codes']).to.include.members(['SCRATCH_NOTE_LOCKED', 'RESOURCE_NOT_FOUND']);
    expect(op.responses['423']!.description).to.include('SCRATCH_NOTE_LOCKED');
    expect(doc.components.schemas.Problem.properties.code.enum).to.include('SCRATCH_NOTE_LOCKED');
  });

  it('ran its migration with the others', async () => {
    expect(t.databaseUrl, 'the test app runs on PostgreSQL').to.be.a('string');
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      const applied = await client.query<{ name: string }>("select name from mikro_orm_migrations where name like '%scratch%'");
      expect(applied.rows.map((r) => r.name)).to.deep.equal(['Migration29991231000000_scratch']);
      expect((await client.query('select count(*)::int as n from scratch_notes')).rows[0].n).to.equal(0);
    } finally {
      await client.end();
    }
  });

  it('registers its periodic task and its subscriber with the jobs', async () => {
    const tasks: PeriodicTask[] = [];
    const queues: string[] = [];
    const recording: JobQueue = { define: (spec) => void queues.push(spec.queue), every: (task) => void tasks.push(task), enqueue: async () => undefined, start: async () => undefined, stop: async () => undefined, dead: async () => [], depths: async () => [] };
    const config = loadConfig({});
    composeJobs(config, inMemory(), pino({ level: 'silent' }), { messages: { send: async () => ({}) }, clock: { now: () => new Date() }, crypto: nodeCrypto(randomBytes(32)) }, { jobs: recording, modules: [...MODULES, scratchModule] });
    expect(tasks.map((task) => task.name)).to.include('scratch-task');
    expect(queues.some((q) => q.includes('scratch-subscriber')), queues.join(', ')).to.equal(true);
    await tasks.find((task) => task.name === 'scratch-task')!.run(new Date());
    expect(ran).to.include('task');
  });
});
