import { type EventKind } from '../sources/shared/normalized-event.js';
import { SOURCE_NAMES } from '../sources/source-registry.js';
import type { ForwardedEvent } from '../outbound/forward-request.js';
import { checkKeys, isMapping, ownValue, type ReportProblem } from '../common/settings-file.js';
import type { DestinationFilter, JsonScalar } from './destination.js';

/** The body a destination receives, or any object of that shape. */
export type ForwardedEventView = ForwardedEvent | Readonly<Record<string, unknown>>;

const EVENT_KINDS: readonly EventKind[] = ['message', 'status', 'other'];
const FILTER_KEYS = ['source', 'kind', 'type', 'tenant', 'match'];

/** A match path starts with one of these: a typo there is a boot error, not a filter that never matches. */
export const FORWARDED_FIELDS = [
  'id', 'provider', 'kind', 'type', 'from', 'fromUserId', 'tenant', 'fromMe', 'authenticated', 'timestamp', 'receivedAt', 'replay', 'payload',
] as const satisfies readonly (keyof ForwardedEvent)[];
// Fails to compile when ForwardedEvent gains a field this list does not name.
const everyFieldListed: [Exclude<keyof ForwardedEvent, (typeof FORWARDED_FIELDS)[number]>] extends [never] ? true : never = true;
void everyFieldListed;

/**
 * Whether a destination takes an event. A path runs over own properties only. A list met on
 * the way is searched element by element unless the segment is an index (so
 * `payload.messages.type: text` matches when any message is a text, `payload.messages.0.type`
 * only the first), and a path ending on a list matches when any element equals. Equality is
 * strict: the number 42 does not match the string "42" (quote a value in YAML to make it a
 * string), and a missing field matches nothing, not even null.
 */
export function matchesFilter(filter: DestinationFilter, event: ForwardedEventView): boolean {
  return (
    anyOf(filter.source, ownValue(event, 'provider')) &&
    anyOf(filter.kind, ownValue(event, 'kind')) &&
    anyOf(filter.type, ownValue(event, 'type')) &&
    anyOf(filter.tenant, ownValue(event, 'tenant')) &&
    Object.entries(filter.match ?? {}).every(([path, expected]) => {
      const wanted: readonly JsonScalar[] = Array.isArray(expected) ? expected : [expected];
      return valuesAt(event, path.split('.')).some((value) => wanted.includes(value as JsonScalar));
    })
  );
}

function anyOf(list: readonly unknown[] | undefined, value: unknown): boolean {
  return list === undefined || list.includes(value);
}

const INDEX = /^(0|[1-9]\d*)$/;

/** Every value the path reaches, lists flattened. */
function valuesAt(value: unknown, segments: readonly string[]): unknown[] {
  if (Array.isArray(value)) {
    const [head, ...rest] = segments;
    if (head !== undefined && INDEX.test(head)) return Object.hasOwn(value, head) ? valuesAt(value[Number(head)], rest) : [];
    return value.flatMap((item) => valuesAt(item, segments));
  }
  if (segments.length === 0) return [value];
  const [head, ...rest] = segments;
  return isMapping(value) && Object.hasOwn(value, head) ? valuesAt(value[head], rest) : [];
}

/** The `filter:` of one file entry; absent or null is the empty filter. */
export function readFilter(value: unknown, report: ReportProblem): DestinationFilter {
  if (value === undefined || value === null) return {};
  if (!isMapping(value)) {
    report('filter', `must be a mapping (${FILTER_KEYS.join(', ')})`);
    return {};
  }
  checkKeys(value, FILTER_KEYS, 'filter.', report);
  const filter: DestinationFilter = {};
  const source = readStrings(ownValue(value, 'source'), 'filter.source', report, SOURCE_NAMES);
  const kind = readStrings(ownValue(value, 'kind'), 'filter.kind', report, EVENT_KINDS);
  const type = readStrings(ownValue(value, 'type'), 'filter.type', report);
  const tenant = readStrings(ownValue(value, 'tenant'), 'filter.tenant', report);
  const match = readMatch(ownValue(value, 'match'), report);
  if (source) filter.source = source;
  if (kind) filter.kind = kind;
  if (type) filter.type = type;
  if (tenant) filter.tenant = tenant;
  if (match) filter.match = match;
  return filter;
}

/** A string or a list of strings, optionally from a closed set. */
function readStrings<T extends string>(value: unknown, field: string, report: ReportProblem, allowed?: readonly T[]): T[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items: unknown[] = Array.isArray(value) ? value : [value];
  if (items.length === 0) report(field, 'must not be an empty list (leave it out to match every event)');
  for (const item of items) {
    // YAML reads 106540352242922 or +5511999 as a number, dropping a leading + or 0: make the operator quote it.
    if (typeof item === 'number') report(field, `holds the number ${item}; write it in quotes`);
    else if (typeof item !== 'string' || item === '') report(field, 'must be a string or a list of strings');
    else if (allowed && !(allowed as readonly string[]).includes(item)) report(field, `${JSON.stringify(item)} is not one of ${allowed.join(', ')}`);
  }
  return items.filter((item): item is T => typeof item === 'string');
}

function readMatch(value: unknown, report: ReportProblem): DestinationFilter['match'] {
  if (value === undefined || value === null) return undefined;
  if (!isMapping(value)) {
    report('filter.match', 'must be a mapping of dotted paths to values, e.g. payload.message.type: text');
    return undefined;
  }
  for (const [path, expected] of Object.entries(value)) {
    const field = `filter.match.${path}`;
    const segments = path.split('.');
    if (segments.includes('')) report(field, 'is not a dotted path (it has an empty segment)');
    else if (!(FORWARDED_FIELDS as readonly string[]).includes(segments[0])) {
      report(field, `must start with a field of the forwarded event (${FORWARDED_FIELDS.join(', ')})`);
    }
    const items: unknown[] = Array.isArray(expected) ? expected : [expected];
    if (items.length === 0) report(field, 'must not be an empty list');
    else if (!items.every(isScalar)) report(field, 'must be a string, a number, true, false, null or a list of these');
  }
  // fromEntries defines own properties, so even a `__proto__` path stays a plain entry.
  return Object.fromEntries(Object.entries(value)) as DestinationFilter['match'];
}

function isScalar(value: unknown): value is JsonScalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}
