import { InvalidPayloadError } from '../common/domain-errors.js';
import { dialog360 } from './360dialog/dialog360.descriptor.js';
import { evolution } from './evolution/evolution.descriptor.js';
import { generic } from './generic/generic.descriptor.js';
import { meta } from './meta/meta.descriptor.js';
import { isJsonObject } from './shared/payload-values.js';
import type { SourceDescriptor } from './source-descriptor.js';
import { twilio } from './twilio/twilio.descriptor.js';
import { waha } from './waha/waha.descriptor.js';
import { wasender } from './wasender/wasender.descriptor.js';

/**
 * The sources this service takes webhooks from, one line each (docs/adding-a-source.md). Their
 * order is the order names are listed in (OpenAPI enums, error messages, metric labels).
 */
export const SOURCES = [meta, wasender, generic, twilio, dialog360, waha, evolution] as const;

export type SourceName = (typeof SOURCES)[number]['name'];

const registered: SourceDescriptor[] = [];
const byName = new Map<string, SourceDescriptor>();
let detectors: SourceDescriptor[] = [];

/**
 * Every registered source's name. registerSources adds to this very array: validators built
 * when their module loads (WEBHOOK_PROVIDERS, the inspection filters) hold it by reference.
 */
export const SOURCE_NAMES: readonly SourceName[] = [];

/**
 * Adds sources defined outside this tree (a test's fake source) to the registry. Call it before
 * the app is built: the app reads the registry when it starts (its sources, log redaction, the
 * OpenAPI document). A name already registered is refused.
 */
export function registerSources(...descriptors: readonly SourceDescriptor[]): void {
  for (const descriptor of descriptors) {
    if (byName.has(descriptor.name)) throw new Error(`source ${descriptor.name} is already registered`);
    registered.push(descriptor);
    byName.set(descriptor.name, descriptor);
    (SOURCE_NAMES as string[]).push(descriptor.name);
  }
  detectors = registered
    .filter((descriptor) => descriptor.detection !== undefined)
    .sort((a, b) => a.detection!.precedence - b.detection!.precedence); // stable: registry order among equals
}
registerSources(...SOURCES);

export function registeredSources(): readonly SourceDescriptor[] {
  return registered;
}

/** The descriptor of a registered source; throws for any other name (an event's source is always registered). */
export function sourceDescriptor(name: string): SourceDescriptor {
  const descriptor = byName.get(name);
  if (descriptor === undefined) throw new Error(`no source ${name} is registered`);
  return descriptor;
}

export function isSourceName(name: string): name is SourceName {
  return byName.has(name);
}

/**
 * Which source's body this is, by its shape alone: POST /webhook serves every JSON source, so
 * each source's detector is tried, the most specific envelope first (see BodyDetection).
 */
export function detectSource(body: unknown): SourceName {
  if (!isJsonObject(body)) throw new InvalidPayloadError('body is not a JSON object');
  const found = detectors.find((descriptor) => descriptor.detection!.matches(body));
  if (found === undefined) throw new InvalidPayloadError('no source takes a body of this shape');
  return found.name as SourceName;
}

/** The request headers whose values are credentials, of every registered source. */
export function credentialHeaders(): string[] {
  return [...new Set(registered.flatMap((descriptor) => descriptor.credentialHeaders))];
}
