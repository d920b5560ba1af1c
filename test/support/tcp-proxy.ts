import { connect, createServer, type Socket } from 'node:net';

/** Where the proxy forwards to: a TCP host and port, or a Unix socket path. */
export type Upstream = { host: string; port: number } | { path: string };

/** The upstream of a postgres:// URL: its host and port, or the Unix socket named by `?host=/dir`. */
export const upstreamOf = (databaseUrl: string): Upstream => {
  const url = new URL(databaseUrl);
  const socketDir = url.searchParams.get('host');
  const port = Number(url.port || 5432);
  if (socketDir?.startsWith('/')) return { path: `${socketDir}/.s.PGSQL.${port}` };
  return { host: url.hostname, port };
};

/**
 * A TCP proxy in front of the database that can lose the network: `blackhole()` stops forwarding
 * in both directions and throws the bytes away while every socket stays open (no FIN, no RST),
 * as a dropped route does; `resume()` forwards again (what was lost stays lost). A side that
 * closes its socket closes the other side too, as a server notices a client that went away.
 */
export const startTcpProxy = async (upstream: Upstream) => {
  let blackholed = false;
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const backend = connect(upstream);
    const pair: [Socket, Socket] = [client, backend];
    pairs.add(pair);
    client.on('data', (chunk) => void (blackholed || backend.write(chunk)));
    backend.on('data', (chunk) => void (blackholed || client.write(chunk)));
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      backend.destroy();
    };
    for (const s of pair) {
      s.on('close', close);
      s.on('error', close);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    /** `databaseUrl` with its host and port replaced by the proxy's. */
    urlFor(databaseUrl: string): string {
      const url = new URL(databaseUrl);
      url.searchParams.delete('host');
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    blackhole: () => void (blackholed = true),
    resume: () => void (blackholed = false),
    get connections() {
      return pairs.size;
    },
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
