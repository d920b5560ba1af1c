/** The public surface of application/operator/ (plans as the operator sets them): what application/index.ts exports of it. */
export * from './plans.js';
