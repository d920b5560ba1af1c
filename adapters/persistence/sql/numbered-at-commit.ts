import { randomUUID } from 'node:crypto';

/**
 * A sale numbered in its transaction's last write (docs/adr/0084): until the COMMIT's write its receipt
 * number is RECEIPT_AT_COMMIT, which what is recorded about it meanwhile carries (its events, its audit
 * entries, a webhook delivery, an idempotent answer). The counter's statement, sent first in that write,
 * keeps the number in the transaction's RECEIPT_SETTING; a statement that writes the placeholder is sent
 * after it, in the same write, and writes the number in its place (`withReceiptNumber`). The placeholder
 * carries a random part of this process's, so no text a client sends can be taken for it.
 */
export const RECEIPT_AT_COMMIT = `RCP-AT-COMMIT-${randomUUID()}`;
export const RECEIPT_SETTING = 'bizops.receipt_number';

/** Whether `text` (a row's JSON) carries the placeholder. */
export const carriesReceiptPlaceholder = (text: string): boolean => text.includes(RECEIPT_AT_COMMIT);

/** A text parameter's (or column's) SQL with the placeholder replaced by the number the counter's statement kept. */
export const withReceiptNumber = (parameter: string): string =>
  `replace(${parameter}::text, '${RECEIPT_AT_COMMIT}', coalesce(current_setting('${RECEIPT_SETTING}', true), '${RECEIPT_AT_COMMIT}'))`;
