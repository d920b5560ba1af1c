import { holdsIdentity } from '../../domain/business.js';
import type { BusinessRepositories } from './ports.js';

/**
 * Whether a person's current membership still holds their phone or e-mail (domain `holdsIdentity`).
 * A lapsed invitation is closed (DEACTIVATED) on the way, so the person can register or be invited
 * elsewhere; call it under the identifier's lock.
 */
export const releaseUnheldMembership = async (repos: Pick<BusinessRepositories, 'memberships'>, userId: string, now: Date): Promise<'held' | 'free'> => {
  const membership = await repos.memberships.findByUser(userId);
  if (!membership) return 'free';
  if (holdsIdentity(membership, now)) return 'held';
  if (membership.status === 'INVITED') {
    membership.status = 'DEACTIVATED';
    membership.updatedAt = now;
    await repos.memberships.save(membership);
  }
  return 'free';
};
