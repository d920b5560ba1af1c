import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy to a database that can "blackhole": while it does, every byte in either direction is
 * read and thrown away and the sockets stay open, as on a network that silently drops packets (no
 * reset, no FIN). The upstream is a host:port or a Unix socket path.
 */
export const startBlackholeProxy = async (upstream: { host: string; port: number } | { path: string }) => {
  let dropping = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const target = connect(upstream as never);
    for (const s of [client, target]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk) => void (dropping || target.write(chunk)));
    target.on('data', (chunk) => void (dropping || client.write(chunk)));
    client.on('close', () => target.destroy());
    target.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    blackhole: () => void (dropping = true),
    resume: () => void (dropping = false),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** Where a postgres:// URL points: a TCP host and port, or (a percent-encoded path as its host) a Unix socket. */
export const upstreamOf = (url: string): { host: string; port: number } | { path: string } => {
  const u = new URL(url);
  const host = decodeURIComponent(u.hostname);
  return host.startsWith('/') ? { path: `${host}/.s.PGSQL.${u.port || 5432}` } : { host, port: Number(u.port || 5432) };
};
