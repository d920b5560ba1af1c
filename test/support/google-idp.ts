import { randomInt } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

export const TEST_GOOGLE_CLIENT_ID = '1234567890-test.apps.googleusercontent.com';
const KID = 'test-google-key';

export interface GoogleClaims extends JWTPayload {
  email?: string;
  email_verified?: boolean | string;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/** A fresh Google account id (`sub`: 21 digits, as Google's are). */
export const aGoogleSubject = (): string => `1${Array.from({ length: 20 }, () => randomInt(10)).join('')}`;

/**
 * Google as the API sees it, on a loopback port: a JWKS endpoint serving one RS256 key, and ID tokens
 * signed with it. `mode` makes the endpoint fail (500) or never answer, as an outage would.
 */
export const startGoogleIdp = async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  let mode: 'up' | 'failing' | 'hanging' = 'up';
  let fetches = 0;
  const hung: ServerResponse[] = [];
  const server = createServer((_req, res) => {
    fetches += 1;
    if (mode === 'hanging') return void hung.push(res);
    if (mode === 'failing') return void res.writeHead(500).end('down');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/v3/certs`;

  return {
    jwksUrl,
    /** The app's configuration for this Google. */
    env: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: jwksUrl },
    get fetches() {
      return fetches;
    },
    setMode: (m: typeof mode) => void (mode = m),
    /**
     * An ID token as Google issues it to the test client (verified e-mail, one hour), with `claims`
     * changed; `signedBy: 'stranger'` signs it with a key Google does not publish, under Google's kid.
     */
    async idToken(claims: GoogleClaims = {}, options: { signedBy?: 'google' | 'stranger'; kid?: string } = {}): Promise<string> {
      const now = Math.floor(Date.now() / 1000);
      const sub = claims.sub ?? aGoogleSubject();
      const payload: GoogleClaims = {
        iss: 'https://accounts.google.com',
        aud: TEST_GOOGLE_CLIENT_ID,
        sub,
        email: `ada.${sub}@gmail.com`,
        email_verified: true,
        given_name: 'Ada',
        family_name: 'Okafor',
        iat: now,
        exp: now + 3600,
        ...claims,
      };
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? KID, typ: 'JWT' })
        .sign(options.signedBy === 'stranger' ? stranger.privateKey : privateKey);
    },
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type GoogleIdp = Awaited<ReturnType<typeof startGoogleIdp>>;
