/** The public surface of application/branches/ (branches of a business): what application/index.ts exports of it. */
export * from './manage-branches.js';
