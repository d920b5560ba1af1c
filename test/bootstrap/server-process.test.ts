import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { spawnNode, stopAllServers } from '../support/server-process.js';

// Issue 33 (docs/adr/0048): failed process tests left servers running an hour after the run. A
// process a test starts goes with its file, with everything it started, and with the test process.

/** Running (a zombie, or gone, is not: an orphan's reaper may be slow). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
const until = async (what: string, ok: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
};
const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before a line: ${out}`)));
  });
const IDLE = 'setInterval(() => undefined, 1000)';

describe('processes a test starts are never left running', function () {
  this.timeout(90_000);

  it('one whose test process dies (SIGKILL, no hook runs) exits by itself', async () => {
    const url = new URL('../support/server-process.ts', import.meta.url).href;
    const script = `import { spawnNode } from ${JSON.stringify(url)}; const c = spawnNode(['-e', ${JSON.stringify(IDLE)}], { stdio: 'ignore' }); console.log(c.pid);`;
    const testProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let pid = 0;
    try {
      pid = Number(await firstLine(testProcess));
      expect(alive(pid), 'started').to.equal(true);
    } finally {
      testProcess.kill('SIGKILL');
    }
    try {
      await until('the orphan exits', () => !alive(pid), 15_000);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('what a file left running is killed after it, with the processes it started', async () => {
    const grandchild = `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(IDLE)}], { stdio: 'ignore' }); console.log(c.pid); ${IDLE}`;
    const child = spawnNode(['-e', grandchild], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = Number(await firstLine(child));
    expect(alive(child.pid!) && alive(pid), 'started').to.equal(true);
    await stopAllServers();
    try {
      await until('the process and the one it started exit', () => !alive(child.pid!) && !alive(pid), 15_000);
    } finally {
      for (const p of [child.pid!, pid]) if (alive(p)) process.kill(p, 'SIGKILL');
    }
  });
});
