/** Roles (API-DECISIONS "Roles"). */
export const ROLES = ['BUSINESS_OWNER', 'STAFF'] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (s: string): s is Role => (ROLES as readonly string[]).includes(s);

/** Who is calling: taken from a verified access token. Every tenant-scoped port takes it. */
export interface Actor {
  readonly userId: string;
  readonly businessId: string;
  readonly roles: readonly Role[];
  /**
   * The member's assigned branch, as read with the membership on each request (undefined where no
   * membership was read). Staff with one sell and adjust stock only there (docs/adr/0032).
   */
  readonly branchId?: string | null;
}

export const hasAnyRole = (actor: Actor, allowed: readonly Role[]): boolean =>
  actor.roles.some((r) => allowed.includes(r));
