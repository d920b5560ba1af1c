import type { AlreadyMember, CannotDeactivateSelf, DefaultBranchProtected, LastOwner } from '../../../application/business/errors.js';
import type { TinRequired } from '../../../domain/vat.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  ALREADY_A_MEMBER: 409,
  DEFAULT_BRANCH_PROTECTED: 409,
  LAST_OWNER: 409,
  CANNOT_DEACTIVATE_SELF: 409,
  TIN_REQUIRED: 422,
});

/** The failures of a business, its branches and its members. */
export type BusinessFailure = DefaultBranchProtected | AlreadyMember | LastOwner | CannotDeactivateSelf | TinRequired;

export const BUSINESS_FAILURES = moduleFailures<BusinessFailure>()(codes, {
  DefaultBranchProtected: failure(['DEFAULT_BRANCH_PROTECTED'], () => problem('DEFAULT_BRANCH_PROTECTED', 'The default branch cannot be deleted.')),
  AlreadyMember: failure(['ALREADY_A_MEMBER'], () => problem('ALREADY_A_MEMBER', 'This person already belongs to a business.')),
  LastOwner: failure(['LAST_OWNER'], () => problem('LAST_OWNER', 'A business keeps at least one active owner.')),
  CannotDeactivateSelf: failure(['CANNOT_DEACTIVATE_SELF'], () => problem('CANNOT_DEACTIVATE_SELF', 'You cannot deactivate yourself.')),
  // a VAT-registered business prints its TIN on every receipt (docs/adr/0054)
  TinRequired: failure(['TIN_REQUIRED'], () =>
    problem('TIN_REQUIRED', 'A VAT-registered business prints its TIN on every receipt: send tin with vat_registered true.', {
      errors: [{ field: 'tin', message: 'is required for a VAT-registered business' }],
    }),
  ),
});
