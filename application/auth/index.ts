/** The public surface of application/auth/ (auth: registration, sign-in codes, sessions): what application/index.ts exports of it. */
export * from './ports.js';
export * from './errors.js';
export * from './register.js';
export * from './request-sign-in-code.js';
export * from './verify-sign-in-code.js';
export * from './refresh-session.js';
export * from './manage-sessions.js';
export * from './send-verification-code.js';
export * from './check-verification-code.js';
export * from './resolve-actor.js';
export * from './get-me.js';
export * from './google-identity-verifier.js';
export * from './google-sign-in.js';
