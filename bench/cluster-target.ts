import { readFileSync } from 'node:fs';
import { startCluster } from '../bootstrap/cluster.js';

/**
 * `npm run bench -- --instances N`: the API as N instances behind HAProxy (bootstrap/cluster.ts),
 * shaped as the bench's one server: its URL is the balancer's, its CPU and memory the sum of the
 * instances' (HAProxy's own CPU is left out; it is small beside Node's).
 */
const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

export const startClusterServer = async (instances: number, env: Record<string, string>) => {
  const lines: string[] = [];
  let errors = 0;
  const cluster = await startCluster({
    instances,
    port: 0,
    env,
    onLine: (i, line) => {
      lines.push(`[${i}] ${line}`);
      if (lines.length > 2000) lines.splice(0, lines.length - 1000);
      if (/"level":(50|60)/.test(line)) errors++;
    },
  });
  const rssKb = () => cluster.pids().reduce((n, pid) => n + statusKb(pid, 'VmRSS'), 0);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb())), 200);
  return {
    name: `API x${instances} behind HAProxy`,
    pid: cluster.pids()[0]!,
    pids: () => cluster.pids(),
    baseUrl: cluster.url.replace(/\/api\/v1$/, ''),
    lines,
    startedAt: Date.now(),
    errorLines: () => errors,
    peakRssMb() {
      const p = Math.max(peak, rssKb());
      peak = 0;
      return Math.round(p / 1024);
    },
    hwmMb: () => Math.round(cluster.pids().reduce((n, pid) => n + statusKb(pid, 'VmHWM'), 0) / 1024),
    exitCode: () => cluster.exitCode(),
    async stop() {
      clearInterval(sampler);
      await cluster.stop();
    },
  };
};
