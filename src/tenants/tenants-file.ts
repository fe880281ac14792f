import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from '../config/whsec.js';
import { checkKeys, isMapping, ownValue } from '../common/settings-file.js';
import { MAX_TENANT_LENGTH } from '../sources/shared/normalized-event.js';
import { SOURCE_NAMES, type SourceName } from '../sources/source-registry.js';

/** One TENANTS_FILE entry: webhook requests carrying one of `credentials` may only be for `tenant`. */
export interface TenantBinding {
  source: SourceName;
  tenant: string;
  credentials: string[];
}

/** Every problem of the file at once, each naming the file and the entry. */
export class TenantsFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid tenants file:\n  - ${problems.join('\n  - ')}`);
    this.name = 'TenantsFileError';
  }
}

/** The shortest credential each source takes, as its environment variable does (generic: a whsec_ secret). */
const MIN_LENGTH: Record<SourceName, number> = { meta: 8, wasender: 8, generic: 0, twilio: 16, '360dialog': 16, waha: 8, evolution: 16 };
const ENTRY_KEYS = ['source', 'tenant', 'credentials'];
/** `${NAME}`: the credential is that environment variable's value, so the file itself can hold no secret. */
const ENV_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Reads TENANTS_FILE once at boot; `.json` is JSON, anything else YAML (of which JSON is a subset). */
export function loadTenantsFile(path: string, env: Record<string, string | undefined> = process.env): TenantBinding[] {
  const origin = `TENANTS_FILE ${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new TenantsFileError([`${origin}: cannot be read (${(error as Error).message})`]);
  }
  return parseTenants(decode(text, extname(path).toLowerCase() === '.json', origin), origin, env);
}

function decode(text: string, json: boolean, origin: string): unknown {
  if (text.trim() === '') throw new TenantsFileError([`${origin}: is empty`]);
  if (json) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new TenantsFileError([`${origin}: invalid JSON: ${(error as Error).message}`]);
    }
  }
  const document = parseDocument(text, { prettyErrors: true });
  const errors = [...document.errors, ...document.warnings];
  if (errors.length > 0) throw new TenantsFileError(errors.map((e) => `${origin}: invalid YAML: ${e.message.split('\n')[0].replace(/:$/, '')}`));
  return document.toJS();
}

/** `{ tenants: [...] }` or a bare list of entries. */
export function parseTenants(document: unknown, origin: string, env: Record<string, string | undefined>): TenantBinding[] {
  const problems: string[] = [];
  let list = document;
  if (isMapping(document)) {
    checkKeys(document, ['tenants'], '', (field, problem) => problems.push(`${origin}: ${field} ${problem}`));
    list = ownValue(document, 'tenants');
  }
  if (!Array.isArray(list) || list.length === 0) {
    throw new TenantsFileError([...problems, `${origin}: must list tenants, as a list of entries or a mapping whose key tenants holds that list`]);
  }
  const first = new Map<string, number>();
  const bindings = list.map((entry, index) => {
    const binding = readEntry(entry, index, origin, env, problems);
    if (!binding) return undefined;
    const id = `${binding.source} ${binding.tenant}`;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, index);
    else problems.push(`${origin}: entry ${index + 1} (${id}): tenant ${binding.tenant} of ${binding.source} is already in entry ${earlier + 1}: list all its credentials there`);
    return binding;
  });
  if (problems.length > 0) throw new TenantsFileError(problems);
  return bindings as TenantBinding[];
}

function readEntry(entry: unknown, index: number, origin: string, env: Record<string, string | undefined>, problems: string[]): TenantBinding | undefined {
  const source = ownValue(entry, 'source');
  const tenant = ownValue(entry, 'tenant');
  const shown = typeof source === 'string' && typeof tenant === 'string' ? ` (${source} ${JSON.stringify(tenant.slice(0, 64))})` : '';
  const label = `${origin}: entry ${index + 1}${shown}`;
  const report = (field: string, problem: string) => problems.push(`${label}: ${field} ${problem}`);
  const before = problems.length;
  if (!isMapping(entry)) {
    problems.push(`${label}: must be a mapping of ${ENTRY_KEYS.join(', ')}`);
    return undefined;
  }
  checkKeys(entry, ENTRY_KEYS, '', report);
  if (!(SOURCE_NAMES as readonly unknown[]).includes(source)) report('source', `must be one of ${SOURCE_NAMES.join(', ')}`);
  // An event's tenant is cut to MAX_TENANT_LENGTH: a name that long could be matched by a longer, different one.
  if (typeof tenant !== 'string' || tenant.trim() === '' || [...tenant].length >= MAX_TENANT_LENGTH) {
    report('tenant', `must be a non-empty string of fewer than ${MAX_TENANT_LENGTH} characters (in quotes if it looks like a number)`);
  } else if (source === 'twilio' && !tenant.startsWith('AC')) {
    report('tenant', 'must be a Twilio AccountSid (AC…), optionally followed by :<business number>');
  }
  const credentials = readCredentials(ownValue(entry, 'credentials'), source as SourceName, env, report);
  return problems.length === before && typeof tenant === 'string' ? { source: source as SourceName, tenant, credentials } : undefined;
}

function readCredentials(value: unknown, source: SourceName, env: Record<string, string | undefined>, report: (field: string, problem: string) => void): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    report('credentials', 'must be a non-empty list (several during a rotation)');
    return [];
  }
  return value.map((item, i) => {
    const field = `credentials #${i + 1}`;
    if (typeof item !== 'string') {
      report(field, 'must be a string (in quotes if it looks like a number)');
      return '';
    }
    const reference = ENV_REFERENCE.exec(item);
    const credential = reference ? env[reference[1]] : item;
    const named = reference ? `${field} (environment variable ${reference[1]})` : field;
    // A credential's value never appears in a message.
    if (credential === undefined || credential === '') report(field, reference ? `refers to environment variable ${reference[1]}, which is not set` : 'must not be empty');
    else if (source === 'generic' && !(WHSEC_PATTERN.test(credential) && keyBytes(credential) >= MIN_KEY_BYTES)) {
      report(named, `must be whsec_ followed by base64 of at least ${MIN_KEY_BYTES} bytes, as GENERIC_WEBHOOK_SECRET`);
    } else if (credential.length < (MIN_LENGTH[source] ?? 0)) report(named, `must be at least ${MIN_LENGTH[source]} characters`);
    return credential ?? '';
  });
}
