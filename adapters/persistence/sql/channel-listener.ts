import pg from 'pg';

/** A LISTEN kept open until `close`. */
export interface ChannelListener {
  /** Resolves once the first LISTEN is in place, or failed (it is tried again). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on `channel` on its own connection to a PostgreSQL server and calls `heard` with each
 * notice's payload (docs/adr/0043, the member cache of 0036). A lost connection is made again after
 * `reconnectMs`; `up` is called once the LISTEN is in place (by default `heard()`, for whatever was said
 * meanwhile), `down` when it is lost. Not for PGlite: its one session hands notices to whichever
 * connection is running a statement.
 */
export const listenToChannel = (options: {
  readonly connectionString: string;
  /** A plain identifier (it is written into the LISTEN statement). */
  readonly channel: string;
  readonly heard: (payload: string | undefined) => void;
  readonly up?: () => void;
  readonly down?: () => void;
  /** What the process does while the LISTEN is down, for the log line (e.g. "polling only"). */
  readonly whileDown?: string;
  readonly log: (message: string, error: unknown) => void;
  readonly reconnectMs?: number;
  readonly heartbeatMs?: number;
}): ChannelListener => {
  if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
  let client: pg.Client | undefined;
  let closed = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: options.connectionString, keepAlive: true, connectionTimeoutMillis: 5000, query_timeout: 5000 });
    client = c;
    const down = (why: unknown) => {
      if (client !== c) return;
      client = undefined;
      clearInterval(heartbeat);
      options.down?.();
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      if (closed) return;
      options.log(`the LISTEN ${options.channel} connection is down; ${options.whileDown ?? 'polling only'} until it is back`, why);
      retry = setTimeout(() => void connect(), options.reconnectMs ?? 1000);
    };
    c.on('error', down);
    c.on('end', () => down(new Error('the connection ended')));
    c.on('notification', (n) => n.channel === options.channel && options.heard(n.payload || undefined));
    try {
      await c.connect();
      await c.query(`listen ${options.channel}`);
    } catch (e) {
      return down(e);
    }
    if (client !== c) return;
    if (options.up) options.up();
    else options.heard(undefined); // what was said before (or while nobody listened)
    heartbeat = setInterval(() => void c.query('select 1').catch(down), options.heartbeatMs ?? 5000);
    heartbeat.unref();
  };

  const ready = connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
};
