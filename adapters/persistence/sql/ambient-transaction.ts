import { AsyncLocalStorage } from 'node:async_hooks';
import type { OpenTransaction } from './sql-session.js';

/**
 * The transaction a request runs in when its units of work must commit together with something
 * else (the idempotent answer, see `UnitOfWork.atomically`). Units of work started inside it join it
 * (as savepoints) and reads inside it use it: on PGlite a read on a second connection would wait for
 * this transaction to end, for ever. It begins on first use, so a request still waiting on something
 * else holds no transaction open (PGlite runs one at a time).
 */
export class AmbientTransaction {
  private opening: Promise<OpenTransaction> | undefined;
  /** Placeholders of values taken with the COMMIT (a receipt number, docs/adr/0084), and each one's value once known. */
  readonly takenAtCommit = new Map<string, string>();
  constructor(private readonly begin: () => Promise<OpenTransaction>) {}

  /** The transaction, begun on first use. */
  transaction(): Promise<OpenTransaction> {
    return (this.opening ??= this.begin());
  }

  async commit(): Promise<void> {
    if (this.opening) await (await this.opening).commit();
  }

  async rollback(): Promise<void> {
    const tx = await this.opening?.catch(() => undefined);
    await tx?.rollback();
  }
}

const ambient = new AsyncLocalStorage<AmbientTransaction>();

export const ambientTransaction = (): AmbientTransaction | undefined => ambient.getStore();

/** Runs `work` in a new ambient transaction: committed when it returns, rolled back when it throws. */
export const inAmbientTransaction = async <A>(begin: () => Promise<OpenTransaction>, work: () => Promise<A>): Promise<A> => {
  const tx = new AmbientTransaction(begin);
  try {
    const result = await ambient.run(tx, work);
    await tx.commit();
    // what `work` answered (a reply, a batch's results) holds the placeholders of values taken with the COMMIT
    return tx.takenAtCommit.size > 0 ? withValuesTaken(result, tx.takenAtCommit) : result;
  } catch (e) {
    await tx.rollback().catch(() => undefined);
    throw e;
  }
};

/** Deadlock (40P01) and serialization failure (40001): the transaction may simply be run again. */
export const isRetryableConflict = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (code === '40P01' || code === '40001') return true;
  }
  return false;
};

/** `value` with every placeholder in its strings replaced; plain objects and arrays are copied, anything else kept. */
const withValuesTaken = <A>(value: A, taken: ReadonlyMap<string, string>): A => {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let out = v;
      for (const [placeholder, actual] of taken) out = out.split(placeholder).join(actual);
      return out;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as A;
};
