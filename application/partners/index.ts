/** The public surface of application/partners/ (partners: api keys, networks, insights, webhooks (docs/adr/0033)): what application/index.ts exports of it. */
export * from './ports.js';
export * from './api-keys.js';
export * from './network.js';
export * from './insights.js';
export * from './webhook-ports.js';
export * from './deliver-webhooks.js';
export * from './manage-webhooks.js';
