import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { checkKeys, isMapping, ownValue, type ReportProblem } from '../common/settings-file.js';
import {
  DESTINATION_LIMITS as LIMITS, DESTINATION_NAME, DESTINATION_ORDERINGS, readCircuitBreaker, readDuration, readInteger, readRateLimit, readSecrets,
  type Destination, type DestinationOrdering,
} from './destination.js';
import { readFilter } from './destination-filter.js';

/** What an entry that does not say takes: the service's MAX_ATTEMPTS and FORWARD_TIMEOUT_MS. */
export interface DestinationDefaults {
  maxAttempts: number;
  timeoutMs: number;
}

export type DestinationsFormat = 'yaml' | 'json';

/** Every problem of the file at once: fixing them one boot at a time would take as many restarts. */
export class DestinationsFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid destinations file:\n  - ${problems.join('\n  - ')}`);
    this.name = 'DestinationsFileError';
  }
}

const ENTRY_KEYS = ['name', 'url', 'secret', 'timeout', 'filter', 'ordering', 'reorderWindow', 'reorderWindowMs', 'rateLimit', 'circuitBreaker', 'maxAttempts', 'enabled'];

/** Reads DESTINATIONS_FILE once at boot; `.json` is JSON, `.yaml`/`.yml` YAML, anything else whichever parses. */
export function loadDestinationsFile(path: string, defaults: DestinationDefaults): Destination[] {
  const origin = `DESTINATIONS_FILE ${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DestinationsFileError([`${origin}: cannot be read (${(error as Error).message})`]);
  }
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return parseDestinations(text, 'json', defaults, origin);
  if (extension === '.yaml' || extension === '.yml') return parseDestinations(text, 'yaml', defaults, origin);
  let format: DestinationsFormat = 'yaml';
  try {
    JSON.parse(stripBom(text));
    format = 'json';
  } catch {
    // Not JSON: read as YAML, whose error (if any) then points at the line.
  }
  return parseDestinations(text, format, defaults, origin);
}

/** `{ destinations: [...] }` or a bare list; `origin` starts every error message. */
export function parseDestinations(text: string, format: DestinationsFormat, defaults: DestinationDefaults, origin = 'DESTINATIONS_FILE'): Destination[] {
  const document = decode(stripBom(text), format, origin);
  const problems: string[] = [];
  const firstWithName = new Map<string, number>();
  const destinations = entryList(document, origin, problems).map((entry, index) => {
    const destination = readEntry(entry, index, defaults, origin, problems);
    if (!destination || !DESTINATION_NAME.test(destination.name)) return destination;
    const first = firstWithName.get(destination.name.toLowerCase());
    if (first === undefined) firstWithName.set(destination.name.toLowerCase(), index);
    else problems.push(`${origin}: destination ${index + 1} (${destination.name}): name ${destination.name} is already used by destination ${first + 1}`);
    return destination;
  });
  if (problems.length > 0) throw new DestinationsFileError(problems);
  return destinations as Destination[];
}

const stripBom = (text: string) => text.replace(/^\uFEFF/, '');

function decode(text: string, format: DestinationsFormat, origin: string): unknown {
  if (text.trim() === '') throw new DestinationsFileError([`${origin}: is empty`]);
  if (format === 'json') {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new DestinationsFileError([`${origin}: invalid JSON: ${withLineAndColumn((error as Error).message, text)}`]);
    }
  }
  // Merge keys let entries share settings through an anchor (`<<: *defaults`). Warnings (an unknown tag…) are errors too.
  const document = parseDocument(text, { merge: true, prettyErrors: true });
  const errors = [...document.errors, ...document.warnings];
  if (errors.length > 0) {
    throw new DestinationsFileError(errors.map((error) => `${origin}: invalid YAML: ${error.message.split('\n')[0].replace(/:$/, '')}`));
  }
  return document.toJS();
}

/** Node 20's JSON.parse gives only an offset; newer versions add the line themselves. */
function withLineAndColumn(message: string, text: string): string {
  const offset = /at position (\d+)/.exec(message);
  if (!offset || /line \d+/.test(message)) return message;
  const lines = text.slice(0, Number(offset[1])).split('\n');
  return `${message} (line ${lines.length}, column ${lines[lines.length - 1].length + 1})`;
}

function entryList(document: unknown, origin: string, problems: string[]): unknown[] {
  let list = document;
  if (isMapping(document)) {
    checkKeys(document, ['destinations'], '', (field, problem) => problems.push(`${origin}: ${field} ${problem}`));
    list = ownValue(document, 'destinations') ?? [];
  }
  if (document === null || document === undefined) problems.push(`${origin}: is empty`);
  else if (!Array.isArray(list)) problems.push(`${origin}: must be a list of destinations, or a mapping whose key destinations holds that list`);
  else if (list.length === 0) problems.push(`${origin}: lists no destinations`);
  return Array.isArray(list) ? list : [];
}

function readEntry(entry: unknown, index: number, defaults: DestinationDefaults, origin: string, problems: string[]): Destination | undefined {
  const name = ownValue(entry, 'name');
  const shownName = typeof name !== 'string' || name === '' ? '' : ` (${DESTINATION_NAME.test(name) ? name : JSON.stringify(name.slice(0, 64))})`;
  const label = `${origin}: destination ${index + 1}${shownName}`;
  const report: ReportProblem = (field, problem) => problems.push(`${label}: ${field} ${problem}`);
  if (!isMapping(entry)) {
    problems.push(`${label}: must be a mapping of settings (${ENTRY_KEYS.join(', ')})`);
    return undefined;
  }
  checkKeys(entry, ENTRY_KEYS, '', report);
  const given = (key: string) => (ownValue(entry, key) ?? undefined) as unknown;
  if (given('reorderWindow') !== undefined && given('reorderWindowMs') !== undefined) {
    report('reorderWindow', 'and reorderWindowMs are the same setting: give only one');
  }
  const windowKey = given('reorderWindow') !== undefined ? 'reorderWindow' : 'reorderWindowMs';
  const destination: Destination = {
    name: required(given('name'), 'name', report, (value) => DESTINATION_NAME.test(value), 'must be 1 to 63 lowercase letters, digits, _ or -, starting with a letter or a digit'),
    url: required(given('url'), 'url', report, isHttpUrl, 'must be an absolute http(s) URL'),
    secrets: readSecrets(given('secret'), report),
    timeoutMs: readDuration(given('timeout'), 'timeout', LIMITS.timeoutMs, report) ?? defaults.timeoutMs,
    filter: readFilter(given('filter'), report),
    ordering: readOrdering(given('ordering'), report),
    reorderWindowMs: readDuration(given(windowKey), windowKey, LIMITS.reorderWindowMs, report) ?? 0,
    rateLimit: readRateLimit(given('rateLimit'), report),
    circuitBreaker: readCircuitBreaker(given('circuitBreaker'), report),
    maxAttempts: readInteger(given('maxAttempts'), 'maxAttempts', LIMITS.maxAttempts, report) ?? defaults.maxAttempts,
    enabled: given('enabled') ?? true,
  } as Destination;
  if (typeof destination.enabled !== 'boolean') report('enabled', 'must be true or false');
  if (destination.ordering === 'none' && destination.reorderWindowMs > 0) report(windowKey, 'needs ordering: conversation');
  return destination;
}

function required(value: unknown, field: string, report: ReportProblem, valid: (value: string) => boolean, problem: string): string {
  if (value === undefined) report(field, 'is required');
  else if (typeof value !== 'string' || !valid(value)) report(field, problem);
  return typeof value === 'string' ? value : '';
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);
}

function readOrdering(value: unknown, report: ReportProblem): DestinationOrdering {
  if (value === undefined) return 'none';
  if (!(DESTINATION_ORDERINGS as readonly unknown[]).includes(value)) report('ordering', `must be ${DESTINATION_ORDERINGS.join(' or ')}`);
  return value as DestinationOrdering;
}

