import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfStale, ENTRY, STAMP } from '../../bootstrap/build-if-stale.mjs';

// Issue 32: `npm start` starts from an up-to-date build without compiling again, and never from a
// stale one (docs/adr/0047).
describe('npm start builds only when dist/ is not of the current sources', () => {
  it('package.json: start runs the compiled server; prestart builds only if stale', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts.start).to.equal('node dist/bootstrap/main.js');
    expect(scripts.prestart).to.equal('node bootstrap/build-if-stale.mjs');
  });

  describe('buildIfStale', () => {
    let root: string;
    let builds: number;
    const compile = () => {
      builds += 1;
      mkdirSync(join(root, 'dist', 'bootstrap'), { recursive: true });
      writeFileSync(join(root, ENTRY), `// build ${builds}`);
    };
    const run = (version = '7.0.2') => buildIfStale({ root, compilerVersion: version, compile });
    const write = (file: string, text: string) => {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
      builds = 0;
      write('tsconfig.json', '{}');
      write('tsconfig.build.json', '{}');
      write('domain/money.ts', 'export const a = 1;');
      write('bootstrap/main.ts', 'import "../domain/money.js";');
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('builds the first time, then starts without compiling while nothing changed', () => {
      expect(run()).to.equal('built');
      expect(run()).to.equal('fresh');
      expect(run()).to.equal('fresh');
      expect(builds).to.equal(1);
    });

    it('builds again after a source changes, even when its modification time is older than the build', () => {
      run();
      write('domain/money.ts', 'export const a = 2;');
      utimesSync(join(root, 'domain/money.ts'), new Date('2020-01-01'), new Date('2020-01-01'));
      expect(run()).to.equal('built');
      expect(builds).to.equal(2);
    });

    it('builds again after a source is added or deleted, a tsconfig or the compiler changes, or dist/ lost its entry point', () => {
      run();
      write('adapters/x.ts', 'export {};');
      expect(run()).to.equal('built');
      rmSync(join(root, 'adapters/x.ts'));
      expect(run()).to.equal('built');
      write('tsconfig.build.json', '{"compilerOptions":{}}');
      expect(run()).to.equal('built');
      expect(run('7.0.3')).to.equal('built');
      rmSync(join(root, ENTRY));
      expect(run('7.0.3')).to.equal('built');
      expect(run('7.0.3')).to.equal('fresh');
      expect(builds).to.equal(6);
    });

    it('a build starts from an empty dist/ (no output of a deleted source survives); a failed build leaves no stamp', () => {
      run();
      write('dist/domain/gone.js', 'stale');
      write('domain/money.ts', 'export const a = 3;');
      run();
      expect(() => readFileSync(join(root, 'dist/domain/gone.js'))).to.throw();
      write('domain/money.ts', 'export const a = 4;');
      expect(() => buildIfStale({ root, compilerVersion: '7.0.2', compile: () => { throw new Error('type error'); } })).to.throw('type error');
      expect(() => readFileSync(join(root, STAMP))).to.throw();
      expect(run()).to.equal('built');
    });

    it('runs as a script: a second run in a built tree compiles nothing', () => {
      const script = join(process.cwd(), 'bootstrap', 'build-if-stale.mjs');
      // a tree with a fake compiler: node_modules/typescript/bin/tsc writes the entry point
      write('node_modules/typescript/package.json', '{"version":"0.0.0-test"}');
      write('node_modules/typescript/bin/tsc', `require('fs').mkdirSync('dist/bootstrap',{recursive:true});require('fs').writeFileSync('dist/bootstrap/main.js','');console.log('TSC RAN');`);
      write('bootstrap/build-if-stale.mjs', readFileSync(script, 'utf8'));
      const start = () => execFileSync(process.execPath, [join(root, 'bootstrap', 'build-if-stale.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(start()).to.contain('TSC RAN');
      expect(start()).to.equal('');
    });
  });
});
