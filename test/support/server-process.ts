import { spawn, type ChildProcess } from 'node:child_process';

/** The real server process (`npm start` runs the same file), with these environment settings on top of the test's. */
export const startServer = (env: Record<string, string>) =>
  new Promise<{ child: ChildProcess; base: string; lines: string[]; readyMs: number }>((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const port = /"port":(\d+)/.exec(line)?.[1];
        if (port && line.includes('listening')) resolve({ child, base: `http://127.0.0.1:${port}/api/v1`, lines, readyMs: Date.now() - started });
      }
    });
    child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited ${code} before listening:\n${lines.join('\n')}`)));
    setTimeout(() => reject(new Error(`server not listening after 60 s:\n${lines.join('\n')}`)), 60_000);
  });

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

/** The sign-in code the log outbox wrote for `to` (the line travels through a pipe: it may arrive just after the HTTP answer). */
export const codeFromLog = async (lines: string[], to: string): Promise<string> => {
  for (let i = 0; i < 200; i++) {
    const line = [...lines].reverse().find((l) => l.includes('"outgoing message"') && l.includes(to));
    const code = line && /code is (\d{6})/.exec(line)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no code for ${to} in the log`);
};

export const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
