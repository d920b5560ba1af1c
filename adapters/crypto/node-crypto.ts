import { createHash, createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Crypto } from '../../application/ports/crypto.js';

/** Node's CSPRNG and HMAC-SHA256 keyed with a server secret. */
export const nodeCrypto = (otpSecret: Uint8Array): Crypto => {
  // a key of its own for refresh-token successors, derived from the server secret
  const successorKey = createHmac('sha256', otpSecret).update('refresh-successor').digest();
  return {
    uuid: () => randomUUID(),
    otpCode: (length) => Array.from({ length }, () => randomInt(0, 10)).join(''),
    refreshToken: () => randomBytes(32).toString('base64url'),
    successorToken: (token) => createHmac('sha256', successorKey).update(token).digest('base64url'),
    hashOtp: (identifierKey, code) => createHmac('sha256', otpSecret).update(`${identifierKey}\n${code}`).digest('base64url'),
    hashToken: (token) => createHash('sha256').update(token).digest('base64url'),
    randomString: (length, alphabet) => Array.from({ length }, () => alphabet[randomInt(0, alphabet.length)]).join(''),
    sha256Hex: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
  };
};

/** The generated OTP secret's file in the data directory (a backup carries it, docs/adr/0067). */
export const OTP_SECRET_FILE = 'otp-secret';

/** A 32-byte secret kept in the data directory, generated on first use (mode 0600). */
export const secretFromDataDir = (dataDir: string, name: string): Uint8Array => {
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
};
