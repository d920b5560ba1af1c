/** The public surface of application/business/ (business: profile, plans): what application/index.ts exports of it. */
export * from './ports.js';
export * from './errors.js';
export * from './get-business.js';
export * from './update-business.js';
export * from './plan-usage.js';
