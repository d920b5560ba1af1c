import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedTemplate } from './database.js';

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/**
 * The server, worker and CLI the tests start are the compiled JavaScript, as `npm start` runs it:
 * compiled once per test run (mocha's global setup, test/support/hooks.ts) into a directory of the
 * run's own at the repository's root (the depth of dist/, so node_modules and the package resolve;
 * two runs at once never share one), instead of tsx compiling the sources in every process (a second
 * or more of CPU per start, docs/adr/0079). TEST_BUILT_DIR names it; unset, the sources run with tsx.
 */
export const buildForTestRun = async (dir: string) => {
  const tsc = spawn(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', dir, '--sourceMap', 'false'], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve, reject) => tsc.once('error', reject).once('exit', resolve));
  if (code !== 0) throw new Error(`the test run's build (tsc -p tsconfig.build.json) exited ${code}`);
  process.env.TEST_BUILT_DIR = dir;
};
/** The run's own directory at the repository's root (see buildForTestRun), removed by the run's global teardown. */
export const testRunDir = (runId: string) => join(ROOT, `.test-build-${runId}`);

/**
 * The arguments that run one of bootstrap/'s entry points (`bootstrap/main.ts`): compiled when there is
 * a build, else the source with tsx. `--liftoff-only`: V8 keeps PGlite's WebAssembly at its first,
 * quick compile instead of optimising it again in the background, which a process that lives for a
 * test does not earn back (4.1-4.5 s of CPU for a server's start and stop, 2.6 s with it; docs/adr/0079).
 * The JavaScript and what it does are the same; only how V8 compiles the WebAssembly differs.
 */
export const entryPoint = (source: string): string[] => {
  const built = process.env.TEST_BUILT_DIR;
  return ['--liftoff-only', ...(built ? [join(built, source.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', source])];
};

/**
 * Every process a test starts is tracked and killed (its whole process group) when the test file
 * ends (root after-all hook, test/support/hooks.ts), when it does not start in time, and when the
 * test process exits; and it ends itself if the test process dies (test/support/exit-with-parent.ts).
 */
const running = new Set<ChildProcess>();
const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  if (!alive(child) || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the group: anything it started goes too
  } catch {
    child.kill(signal);
  }
};
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

/** `node <args>` (an entry point's from entryPoint, or a script), in a process group of its own, tracked as above. */
export const spawnNode = (args: string[], options: SpawnOptions): ChildProcess => {
  const child = spawn(process.execPath, ['--import', fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url)), ...args], {
    ...options,
    env: { ...(options.env ?? process.env), TEST_PARENT_PID: String(process.pid) },
    detached: true,
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
};

/** Kills what is still running (SIGKILL after 5 s of SIGTERM) and waits for it. */
export const stopAllServers = async () => {
  await Promise.all(
    [...running].map(async (child) => {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
    }),
  );
};

/** How long a server may take to listen: a busy 2-core machine starting the embedded database is slow. */
const START_TIMEOUT_MS = 90_000;

/**
 * A server started on an empty DATA_DIR gets a copy of the run's migrated template (test/support/database.ts
 * makeEmbeddedTemplate), so it opens an existing database instead of creating one (half its start-up on a
 * busy machine, docs/adr/0048, 0079).
 */
const seedEmbeddedDataDir = (env: Record<string, string>) => {
  const template = embeddedTemplate();
  if (!template || env.DATABASE_URL || !env.DATA_DIR || existsSync(join(env.DATA_DIR, 'pgdata'))) return;
  cpSync(template.pgdata, join(env.DATA_DIR, 'pgdata'), { recursive: true });
};

/** The real server process (`npm start` runs the same file), with these environment settings on top of the test's. */
export const startServer = async (env: Record<string, string>) => {
  seedEmbeddedDataDir(env);
  return startSpawned(env);
};

const startSpawned = (env: Record<string, string>) =>
  new Promise<{ child: ChildProcess; base: string; lines: string[]; readyMs: number }>((resolve, reject) => {
    const started = Date.now();
    const child = spawnNode(entryPoint('bootstrap/main.ts'), {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const port = /"port":(\d+)/.exec(line)?.[1];
        if (port && line.includes('listening')) {
          clearTimeout(timer);
          resolve({ child, base: `http://127.0.0.1:${port}/api/v1`, lines, readyMs: Date.now() - started });
        }
      }
    });
    child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited ${code} before listening:\n${lines.join('\n')}`)));
    timer = setTimeout(() => {
      killGroup(child, 'SIGKILL'); // never left running
      reject(new Error(`server not listening after ${START_TIMEOUT_MS / 1000} s:\n${lines.join('\n')}`));
    }, START_TIMEOUT_MS);
    child.once('exit', () => clearTimeout(timer));
  });

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

/**
 * The sign-in code the log outbox wrote for `to`. The messages job writes it: right after a start that
 * waits for the job queue, which starts once the API answers (docs/adr/0081, seconds on a busy machine
 * with PGlite), and the line then travels through a pipe.
 */
export const codeFromLog = async (lines: string[], to: string): Promise<string> => {
  for (let i = 0; i < 1000; i++) {
    const line = [...lines].reverse().find((l) => l.includes('"outgoing message"') && l.includes(to));
    const code = line && /code is (\d{6})/.exec(line)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no code for ${to} in the log:\n${lines.slice(-15).join('\n')}`);
};

export const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
