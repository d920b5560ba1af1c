import type { Actor } from '../../domain/roles.js';

export interface IssuedAccessToken {
  readonly token: string;
  readonly expiresIn: number;
}

/** Signs access tokens carrying the actor's user, business and roles. */
export interface TokenIssuer {
  issueAccessToken(actor: Actor): Promise<IssuedAccessToken>;
}
