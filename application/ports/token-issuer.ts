import type { Actor } from '../../domain/roles.js';

export interface IssuedAccessToken {
  readonly token: string;
  readonly expiresIn: number;
}

/** Signs access tokens carrying the actor's user, business and roles, and the session they belong to. */
export interface TokenIssuer {
  issueAccessToken(actor: Actor, sessionId: string): Promise<IssuedAccessToken>;
}
