import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

/**
 * N API instances on one PostgreSQL and one Redis behind HAProxy (issue 20, docs/adr/0035): what
 * `npm run cluster` runs and the tests through the balancer use. Nothing is installed here: what is
 * missing is named, and instances that would generate their own JWT key or OTP secret are refused.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const HEALTH_PATH = '/api/v1/actuator/health';

export interface ClusterOptions {
  readonly instances: number;
  /** The balancer's port (0: any free one). */
  readonly port: number;
  readonly env: Record<string, string | undefined>;
  /** Where each instance's log lines go. */
  readonly onLine?: (instance: number, line: string) => void;
}

export interface Cluster {
  /** http://127.0.0.1:<port>/api/v1 through the balancer. */
  readonly url: string;
  /** Each instance's own base URL, bypassing the balancer. */
  readonly instanceUrls: readonly string[];
  /** Drain one instance at the balancer, SIGTERM it, start it again, and put it back once healthy. */
  restart(instance: number): Promise<void>;
  /** Each instance's process id (the bench sums their CPU and memory). */
  pids(): number[];
  /** An instance's exit code if one has stopped outside `restart`/`stop`, else null. */
  exitCode(): number | null;
  /** Requests the balancer has sent each instance so far (HAProxy's stot). */
  served(): Promise<number[]>;
  stop(): Promise<void>;
}

/** What keeps a cluster from starting here, in words (empty: it can start). */
export const missingForCluster = async (env: Record<string, string | undefined>): Promise<string[]> => {
  const missing: string[] = [];
  if (spawnSync('haproxy', ['-v']).status !== 0) missing.push('HAProxy is not installed (Debian: apt-get install haproxy)');
  if (!env.DATABASE_URL) missing.push('DATABASE_URL: the instances share one PostgreSQL (the embedded database cannot be shared)');
  if (!env.REDIS_URL) missing.push('REDIS_URL: rate limits must be counted across instances');
  else if (!(await redisAnswers(env.REDIS_URL))) missing.push(`REDIS_URL: no Redis answers at ${env.REDIS_URL}`);
  if (!env.JWT_PRIVATE_KEY) missing.push('JWT_PRIVATE_KEY: every instance must sign with the same key (unset, each would generate its own)');
  if (!env.OTP_SECRET) missing.push('OTP_SECRET: every instance must hash codes with the same secret (unset, each would generate its own)');
  return missing;
};

const redisAnswers = async (url: string): Promise<boolean> => {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const haproxyConfig = (o: { port: number; ports: readonly number[]; socket: string }) => `global
  maxconn 4096
  stats socket ${o.socket} mode 600 level admin
defaults
  mode http
  timeout connect 2s
  timeout client 65s
  timeout server 65s
  timeout http-request 10s
  # A request that never reached an instance (refused connection) goes to another one.
  retries 3
  option redispatch 1
  retry-on conn-failure
  # One server connection per request: no idle connection to an instance that is stopping.
  option http-server-close
  option forwardfor
frontend api
  bind 127.0.0.1:${o.port}
  default_backend instances
backend instances
  balance roundrobin
  option httpchk GET ${HEALTH_PATH}
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1
${o.ports.map((p, i) => `  server i${i} 127.0.0.1:${p} check`).join('\n')}
`;

/** One command on HAProxy's admin socket; its answer. */
const admin = (socket: string, command: string) =>
  new Promise<string>((resolve, reject) => {
    const c = createConnection(socket);
    let answer = '';
    c.on('data', (d) => (answer += d.toString()));
    c.on('end', () => resolve(answer));
    c.on('error', reject);
    c.end(`${command}\n`);
  });

/** This instance's row of `show stat`: its status (UP, DOWN, DRAIN…) and current sessions. */
const serverStat = async (socket: string, instance: number) => {
  const csv = await admin(socket, 'show stat');
  const header = csv.split('\n')[0]!.replace(/^# /, '').split(',');
  const row = csv.split('\n').map((l) => l.split(',')).find((r) => r[0] === 'instances' && r[1] === `i${instance}`);
  if (!row) throw new Error(`haproxy knows no server i${instance}`);
  const field = (name: string) => row[header.indexOf(name)] ?? '';
  return { status: field('status'), current: Number(field('scur')), total: Number(field('stot')) };
};

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
};

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

export const startCluster = async (options: ClusterOptions): Promise<Cluster> => {
  const missing = await missingForCluster(options.env);
  if (missing.length > 0) throw new Error(`cannot start the cluster:\n- ${missing.join('\n- ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'bizops-cluster-'));
  const ports = await Promise.all(Array.from({ length: options.instances }, freePort));
  const port = options.port || (await freePort());
  const socket = join(dir, 'haproxy.sock');
  const children: (ChildProcess | undefined)[] = [];
  let haproxy: ChildProcess | undefined;

  const startInstance = async (i: number) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bootstrap', 'main.ts')], {
      cwd: ROOT,
      // Metrics: one scrape per instance (docs/adr/0065): instance i serves them on METRICS_PORT + i.
      env: {
        ...process.env,
        ...options.env,
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        TRUST_PROXY: 'true',
        DATA_DIR: join(dir, `instance-${i}`),
        ...(options.env.METRICS_PORT ? { METRICS_PORT: String(Number(options.env.METRICS_PORT) && Number(options.env.METRICS_PORT) + i) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children[i] = child;
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) options.onLine?.(i, line);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    await until(`instance ${i} healthy on port ${ports[i]}`, async () => {
      if (child.exitCode !== null) throw new Error(`instance ${i} exited with ${child.exitCode}`);
      return (await fetch(`http://127.0.0.1:${ports[i]}${HEALTH_PATH}`)).status === 200;
    });
  };

  const stop = async () => {
    haproxy?.kill('SIGTERM');
    for (const child of children) child?.kill('SIGTERM');
    await Promise.all([...children, haproxy].filter((c): c is ChildProcess => c !== undefined).map(exited));
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // The first instance applies the migrations; the others start once it has.
    await startInstance(0);
    await Promise.all(ports.slice(1).map((_, i) => startInstance(i + 1)));
    writeFileSync(join(dir, 'haproxy.cfg'), haproxyConfig({ port, ports, socket }));
    haproxy = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stderr!.on('data', (d: Buffer) => options.onLine?.(-1, d.toString().trim()));
    for (let i = 0; i < options.instances; i++) await until(`haproxy sees instance ${i} up`, async () => (await serverStat(socket, i)).status === 'UP');
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    instanceUrls: ports.map((p) => `http://127.0.0.1:${p}/api/v1`),
    async restart(i) {
      // Drain: the balancer sends this instance nothing new; what it took finishes before SIGTERM.
      await admin(socket, `set server instances/i${i} state drain`);
      await until(`instance ${i} drained`, async () => (await serverStat(socket, i)).current === 0);
      children[i]!.kill('SIGTERM');
      await exited(children[i]!);
      await startInstance(i);
      await admin(socket, `set server instances/i${i} state ready`);
      await until(`haproxy sees instance ${i} up again`, async () => (await serverStat(socket, i)).status === 'UP');
    },
    pids: () => children.map((c) => c!.pid!),
    exitCode: () => children.find((c) => c!.exitCode !== null)?.exitCode ?? null,
    served: () => Promise.all(ports.map(async (_, i) => (await serverStat(socket, i)).total)),
    stop,
  };
};
