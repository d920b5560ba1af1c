import { AsyncLocalStorage } from 'node:async_hooks';
import type { Attribution } from '../../application/audit/ports.js';

/*
 * Who is behind the work a request does (docs/adr/0069): set by the route runner once it has
 * authenticated the request, narrowed to the till by the sync batch, and read by the unit of work when it
 * turns the events a change records into audit entries. Work outside a request (jobs, the CLI) has none.
 */
const current = new AsyncLocalStorage<Attribution>();

/** Runs `work` with `who` as the attribution of every change it makes. */
export const attributed = <A>(who: Attribution, work: () => Promise<A>): Promise<A> => current.run(who, work);

/** The attribution of the work under way; undefined outside a request. */
export const currentAttribution = (): Attribution | undefined => current.getStore();
