import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { compose } from '../../../bootstrap/compose.js';
import { loadConfig } from '../../../bootstrap/config.js';
import { MODULES as LIST } from '../../../bootstrap/modules/index.js';
import type { AnyModule } from '../../../bootstrap/modules/module.js';
import { moduleContext } from '../../../bootstrap/modules/context.js';
import { inMemory, PERSISTENCE_MODULES } from '../../../bootstrap/persistence.js';
import { IN_MEMORY_MODULES } from '../../../bootstrap/persistence-in-memory.js';
import { openApiPath } from '../../../adapters/http/openapi.js';
import { foldFailures } from '../../../adapters/http/failure-codes.js';
import { CORE_FAILURES } from '../../../adapters/http/failures.js';
import { CORE_MIGRATIONS, MIGRATIONS } from '../../../bootstrap/migrations.js';
import { ERROR_CODES, FAILURES } from '../../../bootstrap/failures.js';

/** What bootstrap/modules/ holds besides the manifests: the list, the manifest's type, the shared context. */
const NOT_MANIFESTS = ['index.ts', 'module.ts', 'context.ts'];
/** Folders under application/ that are no module's: the ports every module uses, the outbox's dispatcher (bootstrap/jobs.ts). */
const SHARED_FOLDERS = ['ports', 'events'];
const MODULES: readonly AnyModule[] = LIST;
const root = new URL('../../../', import.meta.url).pathname;

describe('module manifests (docs/adr/0052)', () => {
  it('lists every manifest file in MODULES, once, and names each as its file', () => {
    const files = readdirSync(join(root, 'bootstrap/modules'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.in-memory.ts') && !NOT_MANIFESTS.includes(f))
      .map((f) => f.replace(/\.ts$/, ''));
    const names = MODULES.map((m) => m.name);
    expect(new Set(names).size, 'a module listed twice').to.equal(names.length);
    expect([...names].sort()).to.deep.equal(files.sort());
  });

  it('covers every folder under application/ that has use cases', () => {
    const folders = readdirSync(join(root, 'application')).filter((f) => statSync(join(root, 'application', f)).isDirectory() && !SHARED_FOLDERS.includes(f));
    const served = new Set(MODULES.flatMap((m) => m.folders));
    expect(folders.filter((f) => !served.has(f)), 'folders no manifest names').to.deep.equal([]);
    expect([...served].filter((f) => !folders.includes(f)), 'manifest folders that do not exist').to.deep.equal([]);
  });

  it("re-exports from application/index.ts exactly the manifests' folders and the shared ones", () => {
    const surface = readFileSync(join(root, 'application/index.ts'), 'utf8');
    const exported = [...surface.matchAll(/^export \* from '\.\/([a-z-]+)\/index\.js';$/gm)].map((m) => m[1]!);
    expect(exported.sort()).to.deep.equal([...new Set([...SHARED_FOLDERS, ...MODULES.flatMap((m) => m.folders)])].sort());
  });

  it('exports every folder under application/ from application/index.ts, each through its own index.ts, one line each', () => {
    const folders = readdirSync(join(root, 'application')).filter((f) => statSync(join(root, 'application', f)).isDirectory());
    const surface = readFileSync(join(root, 'application/index.ts'), 'utf8');
    const exported = [...surface.matchAll(/^export \* from '\.\/([a-z-]+)\/index\.js';$/gm)].map((m) => m[1]);
    expect([...exported].sort()).to.deep.equal([...folders].sort());
    expect(folders.filter((f) => !existsSync(join(root, 'application', f, 'index.ts')))).to.deep.equal([]);
    expect(surface, 'a module file exported past its index').to.not.match(/from '\.\/[a-z-]+\/(?!index\.js)/);
  });

  it('puts every route group of adapters/http/routes/ in a manifest (a group no manifest calls would serve nothing)', () => {
    const dir = join(root, 'adapters/http/routes');
    const groups = readdirSync(dir)
      .filter((f) => /\.routes?\.ts$/.test(f))
      .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/^export const ([a-zA-Z]+Routes) = /gm)].map((m) => m[1]!));
    expect(groups).to.not.be.empty;
    const manifests = readdirSync(join(root, 'bootstrap/modules')).map((f) => readFileSync(join(root, 'bootstrap/modules', f), 'utf8')).join('\n');
    expect(groups.filter((g) => !new RegExp(`\\b${g}\\(`).test(manifests))).to.deep.equal([]);
  });

  it("lists in persistence-in-memory.ts exactly the in-memory halves of the manifests' repositories (the embedder's list)", () => {
    const declared: unknown[] = PERSISTENCE_MODULES.map((r) => r.inMemory);
    expect(IN_MEMORY_MODULES.filter((m) => !declared.includes(m)).length, 'listed in memory, declared by no manifest').to.equal(0);
    expect(declared.filter((m) => !(IN_MEMORY_MODULES as readonly unknown[]).includes(m)).length, 'declared by a manifest, missing in memory').to.equal(0);
    expect(IN_MEMORY_MODULES.length).to.equal(declared.length);
  });

  it("serves and documents every route each manifest declares, in the list's order", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'modules-test-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const logger = pino({ level: 'silent' });
      const persistence = inMemory();
      const ctx = await moduleContext(config, persistence, logger, { modules: MODULES });
      const declared: string[] = [];
      const before: Parameters<(typeof MODULES)[number]['routes']>[1][number][] = [];
      for (const m of MODULES) {
        const own = m.routes(m.useCases(ctx), before);
        expect(own, `${m.name} declares no route`).to.not.be.empty;
        before.push(...own);
        declared.push(...own.map((r) => `${r.method} ${r.path}`));
      }
      const { routes, openApi, dispatcher } = await compose(config, persistence, logger, {});
      await dispatcher.stop();
      await ctx.jobs.dispatcher.stop();
      expect(routes.map((r) => `${r.method} ${r.path}`)).to.deep.equal(declared);
      const paths = (openApi as { paths: Record<string, Record<string, unknown>> }).paths;
      const undocumented = routes.filter((r) => paths[openApiPath(r.path)]?.[r.method] === undefined);
      expect(undocumented.map((r) => `${r.method} ${r.path}`)).to.deep.equal([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('puts every migration file in exactly one manifest (or the core list), named as its file and class, and applies them in name order (docs/adr/0062)', async () => {
    const files = readdirSync(join(root, 'adapters/persistence/sql/migrations'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(files, 'the folder holds migrations only (no index: the list is the manifests)').to.not.include('index');
    const listed = [...CORE_MIGRATIONS, ...MODULES.flatMap((m) => m.migrations)];
    const names = listed.map((m) => m.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i), 'in two lists').to.deep.equal([]);
    expect(files.filter((f) => !names.includes(f)), 'in no manifest').to.deep.equal([]);
    expect(names.filter((n) => !files.includes(n)), 'listed, no such file').to.deep.equal([]);
    for (const m of listed) expect(((await m.load()) as { name: string }).name, m.name).to.equal(m.name);
    expect(MIGRATIONS.map((m) => m.name)).to.deep.equal([...files].sort());
  });

  it('names every failure file of adapters/http/failures/ in exactly one manifest, and folds one table of failures and error codes (docs/adr/0062)', () => {
    const dir = join(root, 'adapters/http/failures');
    const manifests = readdirSync(join(root, 'bootstrap/modules')).filter((f) => !NOT_MANIFESTS.includes(f));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const importers = manifests.filter((m) => readFileSync(join(root, 'bootstrap/modules', m), 'utf8').includes(`adapters/http/failures/${file.replace(/\.ts$/, '.js')}'`));
      expect(importers, file).to.have.length(1);
    }
    // every definition's codes have a status; the core's shared codes and each module's own make up ERROR_CODES
    for (const [tag, def] of Object.entries(FAILURES.definitions)) for (const c of def.codes) expect(ERROR_CODES[c], `${tag} ${c}`).to.be.a('number');
    const own = MODULES.flatMap((m) => m.failures.flatMap((f) => Object.keys(f.errorCodes)));
    expect(Object.keys(ERROR_CODES).sort()).to.deep.equal([...Object.keys(CORE_FAILURES.errorCodes), ...own].sort());
  });

  it('refuses a failure tag or an error code two modules both declare', () => {
    const a = { errorCodes: { A_CODE: 409 }, failures: { Same: { codes: ['A_CODE'], problem: () => undefined as never } } };
    const b = { errorCodes: { B_CODE: 409 }, failures: { Same: { codes: ['B_CODE'], problem: () => undefined as never } } };
    expect(() => foldFailures([{ name: 'a', failures: a }, { name: 'b', failures: b }])).to.throw('failure Same is defined by a and b');
    expect(() => foldFailures([{ name: 'a', failures: a }, { name: 'c', failures: { errorCodes: { A_CODE: 422 }, failures: {} } }])).to.throw('error code A_CODE is declared by a and c');
    expect(() => foldFailures([{ name: 'b', failures: { errorCodes: {}, failures: b.failures } }])).to.throw('failure Same answers B_CODE, which no module declares');
  });
});
