import type { ProvisionalReceiptNumberTaken } from '../../application/sales/record-sale.js';
import type { ClientIdConflict } from '../../application/sync/client-id.js';
import type { ConflictAlreadyResolved } from '../../application/sync/conflicts.js';
import { problem, type Problem } from './problem.js';

/** The failures of offline sync (docs/adr/0034); part of failures.ts's one mapping. */
export type SyncFailure = ClientIdConflict | ProvisionalReceiptNumberTaken | ConflictAlreadyResolved;

export const SYNC_FAILURES: { readonly [K in SyncFailure['_tag']]: (f: Extract<SyncFailure, { _tag: K }>) => Problem } = {
  ClientIdConflict: (f) =>
    problem('CLIENT_ID_CONFLICT', `The id ${f.id} is already used for another record or other content; a retry must send exactly what was sent first.`, {
      errors: [{ field: 'id', message: 'is already used' }],
    }),
  ProvisionalReceiptNumberTaken: (f) =>
    problem('PROVISIONAL_RECEIPT_NUMBER_TAKEN', `Another sale already has the receipt number ${f.number}; give each till its own device code.`, {
      errors: [{ field: 'provisional_receipt_number', message: 'is already used' }],
    }),
  ConflictAlreadyResolved: () => problem('CONFLICT_ALREADY_RESOLVED', 'The owner has already decided this conflict.'),
};
