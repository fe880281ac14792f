/** `whsec_` + base64, as Standard Webhooks libraries write secrets. */
export const WHSEC_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** The shortest HMAC key a `whsec_` secret may decode to. */
export const MIN_KEY_BYTES = 16;

/** How many bytes the HMAC key of a `whsec_` secret has. */
export const keyBytes = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64').length;
