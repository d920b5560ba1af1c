/** Signs a webhook by the Standard Webhooks specification: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`. */
export interface WebhookSigner {
  sign(secret: string, messageId: string, at: Date, body: string): string;
}

/** The answer to one POST of a webhook: `status` null when none came (refused, timeout, address not allowed). */
export interface PostOutcome {
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: string | null;
}

/** POSTs a webhook to a partner's URL, refusing private and loopback addresses unless configured to allow them. */
export interface WebhookPoster {
  post(url: string, headers: Record<string, string>, body: string): Promise<PostOutcome>;
}
