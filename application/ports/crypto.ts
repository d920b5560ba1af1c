/** Randomness and one-way hashing: OTPs and refresh tokens are stored only as hashes. */
export interface Crypto {
  uuid(): string;
  /** A numeric code from a cryptographic RNG. */
  otpCode(length: number): string;
  /** An opaque refresh token with at least 256 bits of entropy. */
  refreshToken(): string;
  /** Keyed hash of a code bound to its identifier, so a stolen table cannot be brute-forced offline. */
  hashOtp(identifierKey: string, code: string): string;
  hashToken(token: string): string;
}
