/** The public surface of application/sync/ (offline sync: client ids (docs/adr/0034)): what application/index.ts exports of it. */
export * from './ports.js';
export * from './client-id.js';
export * from './conflicts.js';
export * from './changes.js';
