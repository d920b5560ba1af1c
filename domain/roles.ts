/** Roles (API-DECISIONS "Roles"). */
export const ROLES = ['BUSINESS_OWNER', 'STAFF'] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (s: string): s is Role => (ROLES as readonly string[]).includes(s);

/** Who is calling: taken from a verified access token. Every tenant-scoped port takes it. */
export interface Actor {
  readonly userId: string;
  readonly businessId: string;
  readonly roles: readonly Role[];
}

export const hasAnyRole = (actor: Actor, allowed: readonly Role[]): boolean =>
  actor.roles.some((r) => allowed.includes(r));
