import type { AlreadyMember, CannotDeactivateSelf, DefaultBranchProtected, LastOwner } from '../../../application/business/errors.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  ALREADY_A_MEMBER: 409,
  DEFAULT_BRANCH_PROTECTED: 409,
  LAST_OWNER: 409,
  CANNOT_DEACTIVATE_SELF: 409,
});

/** The failures of a business, its branches and its members. */
export type BusinessFailure = DefaultBranchProtected | AlreadyMember | LastOwner | CannotDeactivateSelf;

export const BUSINESS_FAILURES = moduleFailures<BusinessFailure>()(codes, {
  DefaultBranchProtected: failure(['DEFAULT_BRANCH_PROTECTED'], () => problem('DEFAULT_BRANCH_PROTECTED', 'The default branch cannot be deleted.')),
  AlreadyMember: failure(['ALREADY_A_MEMBER'], () => problem('ALREADY_A_MEMBER', 'This person already belongs to a business.')),
  LastOwner: failure(['LAST_OWNER'], () => problem('LAST_OWNER', 'A business keeps at least one active owner.')),
  CannotDeactivateSelf: failure(['CANNOT_DEACTIVATE_SELF'], () => problem('CANNOT_DEACTIVATE_SELF', 'You cannot deactivate yourself.')),
});
