import { holdsIdentity } from '../../domain/business.js';
import type { BusinessRepositories } from './ports.js';

/**
 * Whether a person's current membership still holds their phone or e-mail (domain `holdsIdentity`).
 * A lapsed invitation is closed (DEACTIVATED) on the way, so the person can register or be invited
 * elsewhere; call it under the identifier's lock. `invitations: 'yield'` (the person registering
 * their own business) closes a pending invitation too: registering wins over being invited, so an
 * inviter cannot keep a phone from its owner by inviting it again and again (docs/adr/0042).
 */
export const releaseUnheldMembership = async (
  repos: Pick<BusinessRepositories, 'memberships'>,
  userId: string,
  now: Date,
  invitations: 'hold' | 'yield' = 'hold',
): Promise<'held' | 'free'> => {
  const membership = await repos.memberships.findByUser(userId);
  if (!membership) return 'free';
  if (holdsIdentity(membership, now) && !(invitations === 'yield' && membership.status === 'INVITED')) return 'held';
  if (membership.status === 'INVITED') {
    membership.status = 'DEACTIVATED';
    membership.updatedAt = now;
    await repos.memberships.save(membership);
  }
  return 'free';
};
