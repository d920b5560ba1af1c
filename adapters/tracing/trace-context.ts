import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { parseTraceparent, traceIdOf, traceparentOf } from '../../domain/trace.js';

/**
 * The traceparent of the work under way (a request that brought one, a job or event it caused), for
 * the adapters that stamp it on what that work records (outbox rows, webhook deliveries) and for the
 * log lines written meanwhile (docs/adr/0066). Work without a trace never enters the storage: in
 * Node 20 the first `run` turns promise hooks on for the process (ADR 0036), so a request without a
 * traceparent costs nothing.
 */
const current = new AsyncLocalStorage<string>();

/** The traceparent of the work under way, if any. */
export const currentTraceparent = (): string | undefined => current.getStore();

/** Runs `work` as part of the trace `traceparent`; without one, just runs it. */
export const withTraceparent = <A>(traceparent: string | null | undefined, work: () => A): A => (traceparent ? current.run(traceparent, work) : work());

/** This service's span in the trace of an incoming `traceparent` header (undefined when absent or invalid: it is ignored). */
export const serverSpanOf = (header: string | undefined): { readonly traceId: string; readonly traceparent: string } | undefined => {
  const incoming = parseTraceparent(header);
  return incoming ? { traceId: incoming.traceId, traceparent: traceparentOf(incoming, randomBytes(8).toString('hex')) } : undefined;
};

/** pino's `mixin`: `trace_id` on every line written inside traced work. */
export const traceLogMixin = (): { trace_id?: string } => {
  const traceparent = current.getStore();
  const traceId = traceparent ? traceIdOf(traceparent) : undefined;
  return traceId ? { trace_id: traceId } : {};
};
