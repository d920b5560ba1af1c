/** The public surface of application/loan-packs/ (loan packs and their payment): what application/index.ts exports of it. */
export * from './ports.js';
export * from './document.js';
export * from './create-loan-pack.js';
export * from './pay-loan-pack.js';
export * from './read-loan-packs.js';
