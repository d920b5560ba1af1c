/** The public surface of application/ports/ (ports every use case may need: pick adapters for these (see bootstrap/embed.ts for the in-memory ones)): what application/index.ts exports of it. */
export * from './clock.js';
export * from './crypto.js';
export * from './idempotency-store.js';
export * from './list.js';
export * from './member-cache.js';
export * from './message-sender.js';
export * from './token-issuer.js';
export * from './unit-of-work.js';
export * from './outbox.js';
export * from './job-queue.js';
export * from './webhooks.js';
