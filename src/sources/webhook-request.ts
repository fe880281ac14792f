/** What a source's verifier and parser see of one POST to a webhook URL (the ingress builds it). */
export interface WebhookRequest {
  /** The body as its source's format decoded it (any JSON value: the service decides what it takes). */
  body: unknown;
  /** The exact request bytes (signatures are computed over these). */
  rawBody: Buffer;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /** The path and query string as received (Twilio signs the full URL it called). */
  url: string;
  /** The URL segment after /webhook/<source>/ ('' when none), e.g. Evolution API's event name. */
  urlSuffix: string;
}
