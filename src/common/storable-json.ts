import { withinNestingLimit } from '../events/payload-values.js';

/**
 * JSON text that jsonb accepts: PostgreSQL rejects the \u0000 escape, so a NUL inside a string
 * becomes U+FFFD instead of failing the claim (an escaped backslash before "u0000" is left alone).
 */
export function toStorableJson(value: unknown): string {
  const json = withinNestingLimit(() => JSON.stringify(value));
  // The scan is cheap; the regex only runs on the rare body that holds a NUL.
  return json.includes('\\u0000') ? json.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd') : json;
}
