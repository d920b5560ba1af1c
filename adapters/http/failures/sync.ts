import type { ProvisionalReceiptNumberTaken } from '../../../application/sales/record-sale.js';
import type { ClientIdConflict } from '../../../application/sync/client-id.js';
import type { SyncCursorAhead } from '../../../application/sync/changes.js';
import type { ConflictAlreadyResolved } from '../../../application/sync/conflicts.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  CLIENT_ID_CONFLICT: 409,
  PROVISIONAL_RECEIPT_NUMBER_TAKEN: 409,
  CONFLICT_ALREADY_RESOLVED: 409,
});

/** The failures of offline sync (docs/adr/0034). */
export type SyncFailure = ClientIdConflict | ProvisionalReceiptNumberTaken | ConflictAlreadyResolved | SyncCursorAhead;

export const SYNC_FAILURES = moduleFailures<SyncFailure>()(codes, {
  ClientIdConflict: failure(['CLIENT_ID_CONFLICT'], (f) =>
    problem('CLIENT_ID_CONFLICT', `The id ${f.id} is already used for another record or other content; a retry must send exactly what was sent first.`, {
      errors: [{ field: 'id', message: 'is already used' }],
    }),
  ),
  ProvisionalReceiptNumberTaken: failure(['PROVISIONAL_RECEIPT_NUMBER_TAKEN'], (f) =>
    problem('PROVISIONAL_RECEIPT_NUMBER_TAKEN', `Another sale already has the receipt number ${f.number}; give each till its own device code.`, {
      errors: [{ field: 'provisional_receipt_number', message: 'is already used' }],
    }),
  ),
  ConflictAlreadyResolved: failure(['CONFLICT_ALREADY_RESOLVED'], () => problem('CONFLICT_ALREADY_RESOLVED', 'The owner has already decided this conflict.')),
  // the same answer as any other cursor this API did not make (docs/adr/0034): the till pulls again without it
  SyncCursorAhead: failure(['VALIDATION_FAILED'], () =>
    problem('VALIDATION_FAILED', 'The since cursor is ahead of this server: it was not made here (or the database was restored from an earlier copy); pull again without it.', {
      errors: [{ field: 'since', message: 'is not a cursor of GET /sync/changes' }],
    }),
  ),
});
