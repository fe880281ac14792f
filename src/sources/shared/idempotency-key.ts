import { createHash } from 'node:crypto';
import { hasUnstorable } from '../../common/storable-json.js';
import { withinNestingLimit } from '../../common/nesting-limit.js';
import type { SourceName } from '../source-registry.js';
import { isJsonObject } from './payload-values.js';

/** The key column's width; longer keys are replaced by a digest of themselves. */
export const MAX_KEY_LENGTH = 255;

/**
 * The second segment of every key. With the source in front it keeps ids from
 * different sources and kinds apart (a wamid and a WASender id may be equal strings).
 */
export type KeyTag = 'msg' | 'status' | 'receipt' | 'ack' | 'other' | 'hash' | 'delivery';

/**
 * `<source>:<tag>:<part>:<part>…`, or `<source>:<scope>:<tag>:<part>…` for ids that are unique
 * only within one account of the source (a WAHA session, an Evolution instance), or
 * `<source>:<tag>:sha256:<hex>` when that is too long.
 * Digesting the full key (not a truncation) keeps two long ids with a common prefix distinct.
 * An id holding a character PostgreSQL cannot store (NUL, a lone surrogate) is digested too,
 * over its UTF-16 code units, so two such ids never collapse into one key.
 */
export function buildKey(source: SourceName, tag: KeyTag, parts: readonly string[], scope?: string): string {
  const key = [scope === undefined ? source : `${source}:${scope}`, tag, ...parts].join(':');
  if (hasUnstorable(key)) return `${source}:${tag}:sha256:${createHash('sha256').update(key, 'utf16le').digest('hex')}`;
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `${source}:${tag}:sha256:${sha256Hex(key)}`;
}

/** A key for an item that has no id of its own: identical content gives the identical key. */
export function buildContentKey(source: SourceName, tag: KeyTag, content: unknown, scope?: string): string {
  return buildKey(source, tag, [sha256Hex(canonicalJson(content))], scope);
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * JSON with object keys sorted, so a source re-serialising the same content in another
 * key order still produces the same hash. Undefined members are left out, as JSON does.
 */
export function canonicalJson(value: unknown): string {
  return withinNestingLimit(() => writeCanonical(value));
}

function writeCanonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : writeCanonical(item))).join(',')}]`;
  }
  if (isJsonObject(value)) {
    const members: string[] = [];
    for (const name of Object.keys(value).sort()) {
      const member = value[name];
      if (member !== undefined) members.push(`${JSON.stringify(name)}:${writeCanonical(member)}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
