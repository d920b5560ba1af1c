import { randomBytes } from 'node:crypto';
import type { Clock } from '../application/ports/clock.js';
import type { Crypto } from '../application/ports/crypto.js';
import type { MessageSender } from '../application/ports/message-sender.js';
import type { UnitOfWork } from '../application/ports/unit-of-work.js';
import { createDispatcher } from '../application/events/dispatcher.js';
import { sendMessages } from '../application/events/send-messages.js';
import { deliverNotifications } from '../application/notifications/deliver-notifications.js';
import { queueSubscribers } from '../application/events/queued-subscribers.js';
import { inProcessJobQueue } from '../adapters/jobs/in-process.job-queue.js';
import { nodeCrypto } from '../adapters/crypto/node-crypto.js';
import { deliverAfterCommit, type RecordHook } from '../adapters/persistence/deliver-after-commit.js';
import { recordAuditEntries } from '../application/audit/record-audit-entries.js';
import { inMemory, type AppRepositories } from './persistence-in-memory.js';

/**
 * The adapters side of the embedding surface (application/index.ts is the use-case side): every
 * module's repositories in memory, the system clock, Node's crypto with a fresh OTP secret, and the
 * outbox delivering sign-in codes, invitations and queued notifications to `messages` right after each commit
 * (the background triggers and the scheduled notifications need a queue: see docs/adr/0030).
 * A program that wants PostgreSQL instead uses `openPostgres` from bootstrap/persistence.ts.
 * This file loads no SQL, ORM or queue module (MikroORM, knex, pg, pg-boss, PGlite): it imports only
 * in-memory adapters, through persistence-in-memory.ts, never persistence.ts (docs/adr/0050).
 */
export const inMemoryAdapters = (messages: MessageSender): { uow: UnitOfWork<AppRepositories>; clock: Clock; crypto: Crypto } => {
  const persistence = inMemory();
  const clock: Clock = { now: () => new Date() };
  // Jobs run in this process, right after the commit; the outbox retries what failed (docs/adr/0029).
  const subscribers = queueSubscribers(inProcessJobQueue({ now: () => clock.now() }), [
    sendMessages({ messages, clock }),
    deliverNotifications({ uow: persistence.uow, messages, clock }),
  ]);
  const dispatcher = createDispatcher({ outbox: persistence.outbox, clock, subscribers });
  const crypto = nodeCrypto(randomBytes(32));
  // an embedder's changes are audited like the server's, with no request behind them: the system's (docs/adr/0069)
  const audit = recordAuditEntries({ crypto });
  const auditEntries: RecordHook<AppRepositories> = { recorded: async (repos, at, events) => (await audit(repos, at, events, undefined), false), committed: () => undefined };
  return { uow: deliverAfterCommit(persistence.uow, dispatcher, [auditEntries]), clock, crypto };
};
