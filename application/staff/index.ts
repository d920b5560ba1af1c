/** The public surface of application/staff/ (staff of a business): what application/index.ts exports of it. */
export * from './manage-staff.js';
