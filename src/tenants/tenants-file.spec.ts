import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTenantsFile, TenantsFileError } from './tenants-file.js';

const KEY = 'EVOLUTION-KEY-OF-SALES-00000001';

function load(text: string, name = 'tenants.yaml', env: Record<string, string> = {}) {
  const path = join(mkdtempSync(join(tmpdir(), 'tenants-spec-')), name);
  writeFileSync(path, text);
  return loadTenantsFile(path, env);
}
function problemsOf(text: string, name?: string, env?: Record<string, string>): string[] {
  try {
    load(text, name, env);
  } catch (error) {
    if (error instanceof TenantsFileError) return [...error.problems];
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('TENANTS_FILE', () => {
  it("reads the issue's shape (YAML), with ${VAR} references resolved from the environment", () => {
    const bindings = load(
      `tenants:
  - source: evolution
    tenant: sales            # the Evolution instance
    credentials: [${KEY}]
  - source: waha
    tenant: default
    credentials: ["\${WAHA_KEY}"]
  - source: twilio
    tenant: AC0123456789abcdef0123456789abcdef
    credentials: [twilio-token-000000000001]
`,
      'tenants.yaml',
      { WAHA_KEY: 'waha-hmac-key-0001' },
    );
    expect(bindings).toEqual([
      { source: 'evolution', tenant: 'sales', credentials: [KEY] },
      { source: 'waha', tenant: 'default', credentials: ['waha-hmac-key-0001'] },
      { source: 'twilio', tenant: 'AC0123456789abcdef0123456789abcdef', credentials: ['twilio-token-000000000001'] },
    ]);
  });

  it('reads JSON, as a bare list too', () => {
    expect(load(JSON.stringify([{ source: 'evolution', tenant: 'sales', credentials: [KEY] }]), 't.json')).toHaveLength(1);
  });

  it('names the file, the entry and the field of every problem, never a credential value', () => {
    const problems = problemsOf(`tenants:
  - source: evolution
    tenant: sales
    credentials: [short]
  - source: nosuch
    tenant: x
    credentials: [${KEY}]
  - source: twilio
    tenant: not-an-account
    credentials: ["\${UNSET_VAR}"]
  - source: evolution
    tenant: sales
    credentials: [${KEY}]
    extra: 1
`);
    expect(problems.every((p) => p.startsWith('TENANTS_FILE ') && p.includes('tenants.yaml: entry '))).toBe(true);
    expect(problems.join('\n')).not.toContain('short');
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/entry 1 \(evolution "sales"\): credentials #1 must be at least 16 characters/),
      expect.stringMatching(/entry 2 .*source must be one of/),
      expect.stringMatching(/entry 3 .*tenant must be a Twilio AccountSid/),
      expect.stringMatching(/entry 3 .*credentials #1 refers to environment variable UNSET_VAR, which is not set/),
      expect.stringMatching(/entry 4 .*extra is not a known key/),
    ]));
  });

  it('refuses a tenant listed twice for one source', () => {
    const entry = `  - source: evolution\n    tenant: sales\n    credentials: [${KEY}]\n`;
    expect(problemsOf(`tenants:\n${entry}${entry}`)).toEqual([expect.stringMatching(/entry 2 .*already in entry 1/)]);
  });

  it('refuses an empty file, an empty list and broken YAML with one line each', () => {
    expect(problemsOf('')).toEqual([expect.stringContaining('is empty')]);
    expect(problemsOf('tenants: []')).toEqual([expect.stringContaining('must list tenants')]);
    expect(problemsOf('tenants: [')[0]).toContain('invalid YAML');
  });
});

describe('docs/tenants.example.yaml', () => {
  it('is a valid TENANTS_FILE once its variables are set', () => {
    const path = new URL('../../docs/tenants.example.yaml', import.meta.url).pathname;
    const names = ['EVOLUTION_KEY_SALES', 'EVOLUTION_KEY_SUPPORT', 'EVOLUTION_KEY_SUPPORT_OLD', 'WAHA_HMAC_KEY_DEFAULT', 'TWILIO_AUTH_TOKEN_MAIN',
      'WASENDER_SECRET_SHOP', 'DIALOG360_HEADER_SECRET_SHOP', 'META_APP_SECRET_SHOP'];
    const env = Object.fromEntries(names.map((name) => [name, `${name.toLowerCase()}-value-0001`]));
    expect(loadTenantsFile(path, env).map((b) => `${b.source} ${b.tenant}`)).toEqual([
      'evolution sales', 'evolution support', 'waha default', 'twilio AC0123456789abcdef0123456789abcdef', 'wasender shop-line-1',
      '360dialog 106540352242922', 'meta 109876543210987',
    ]);
  });
});
