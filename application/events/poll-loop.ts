/** A loop that runs its work again and again between `start` and `stop`. */
export interface PollLoop {
  /** The first run at once (on the next turn of the event loop); nothing if already started. */
  start(): void;
  /** A run now, when started: a run under way is followed by another at once. */
  wake(): void;
  /** No further run; resolves when the run under way is over. */
  stop(): Promise<void>;
}

/**
 * The one poll loop (the outbox's dispatcher and the webhook deliveries: docs/adr/0050): runs `run`,
 * then again `ms` after it ended, between `start` and `stop`; a fault is handed to `report` and the
 * loop goes on. `run` is told whether the loop still runs, so a long run (one that goes on while it
 * finds work) ends early on a stop.
 */
export const pollLoop = (ms: number, run: (running: () => boolean) => Promise<unknown>, report: (e: unknown) => void): PollLoop => {
  let running = false;
  let busy = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (busy) return void (again = true);
    clearTimeout(timer);
    busy = true;
    do {
      again = false;
      current = run(() => running).catch(report);
      await current;
    } while (again && running);
    busy = false;
    if (running) timer = setTimeout(() => void tick(), ms);
  };
  return {
    start() {
      if (running) return;
      running = true;
      timer = setTimeout(() => void tick(), 0);
    },
    wake() {
      if (running) void tick();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
};
