/**
 * `npm run cluster [-- --instances N] [--port P]`: N API instances (default 2) on one PostgreSQL
 * (DATABASE_URL) and one Redis (REDIS_URL) behind HAProxy on 127.0.0.1:P (default 8080), with
 * health checks on /api/v1/actuator/health. JWT_PRIVATE_KEY and OTP_SECRET are required: instances
 * that would generate their own are refused. Installs nothing: says what is missing and stops.
 * Ctrl-C or SIGTERM stops HAProxy and every instance (each finishes what it took).
 */
import { startCluster, missingForCluster } from './cluster.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : (argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
};
const instances = Number(option('instances', process.env.CLUSTER_INSTANCES ?? '2'));
const port = Number(option('port', process.env.CLUSTER_PORT ?? '8080'));
if (!Number.isInteger(instances) || instances < 1 || instances > 16 || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: npm run cluster -- [--instances 1..16] [--port P]');
  process.exit(2);
}

const missing = await missingForCluster(process.env);
if (missing.length > 0) {
  console.error(`npm run cluster: cannot start; missing:\n- ${missing.join('\n- ')}`);
  process.exit(1);
}
const cluster = await startCluster({ instances, port, env: process.env, onLine: (i, line) => console.log(i < 0 ? `[haproxy] ${line}` : `[${i}] ${line}`) });
console.log(`cluster: ${instances} instances behind HAProxy on ${cluster.url} (instances: ${cluster.instanceUrls.join(', ')}); Ctrl-C stops them`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('cluster: stopping HAProxy and the instances');
  await cluster.stop();
  console.log('cluster: stopped');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
