/** The public surface of application/events/ (what happened: the outbox's dispatcher and its subscribers): what application/index.ts exports of it. */
export * from './dispatcher.js';
export * from './poll-loop.js';
export * from './send-messages.js';
export * from './queued-subscribers.js';
