import { withinNestingLimit } from '../sources/shared/payload-values.js';

/** NUL and unpaired surrogates: PostgreSQL stores neither in text nor in jsonb. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

/** Whether `text` holds a character PostgreSQL refuses (NUL, a lone surrogate). */
export function hasUnstorable(text: string): boolean {
  return storableText(text) !== text;
}

/** `text` with every NUL and lone surrogate replaced by U+FFFD, so it fits a text column. */
export function storableText(text: string): string {
  return MAYBE_UNSTORABLE.test(text) ? text.replace(UNSTORABLE, '\ufffd') : text;
}

/**
 * JSON text that jsonb accepts. PostgreSQL rejects the \u0000 escape and unpaired surrogate
 * escapes (JSON.stringify writes a lone surrogate as \udXXX; a valid pair it writes as the
 * character itself), so each becomes U+FFFD instead of failing the claim. An escaped backslash
 * before "u…" is left alone.
 */
export function toStorableJson(value: unknown): string {
  const json = withinNestingLimit(() => JSON.stringify(value));
  // The scan is cheap; the regex only runs on the rare body that holds such a character.
  if (!json.includes('\\u0000') && !/\\ud[89a-f]/.test(json)) return json;
  return json.replace(/(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g, '$1\\ufffd');
}
