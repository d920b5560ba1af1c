/** The public surface of application/audit/ (the owner's audit log): what application/index.ts exports of it. */
export * from './ports.js';
export * from './record-audit-entries.js';
export * from './read-audit-log.js';
