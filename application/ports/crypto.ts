/** Randomness and one-way hashing: OTPs and refresh tokens are stored only as hashes. */
export interface Crypto {
  uuid(): string;
  /** A numeric code from a cryptographic RNG. */
  otpCode(length: number): string;
  /** An opaque refresh token with at least 256 bits of entropy. */
  refreshToken(): string;
  /**
   * The refresh token that replaces `token` when it is rotated: a keyed hash of it under a server key
   * (as unguessable as a random one without the key), so the same token presented twice gets the
   * same successor (the refresh grace window, docs/adr/0042).
   */
  successorToken(token: string): string;
  /** Keyed hash of a code bound to its identifier, so a stolen table cannot be brute-forced offline. */
  hashOtp(identifierKey: string, code: string): string;
  hashToken(token: string): string;
  /** `length` characters drawn uniformly from `alphabet` by a cryptographic RNG (unguessable references). */
  randomString(length: number, alphabet: string): string;
  /** SHA-256 of the UTF-8 bytes of `text`, lowercase hex (a document's fingerprint, not a secret). */
  sha256Hex(text: string): string;
}
