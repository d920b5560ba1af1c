/** The public surface of application/expenses/ (expenses and their categories): what application/index.ts exports of it. */
export * from './ports.js';
export * from './manage-expenses.js';
export * from './manage-categories.js';
