import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CIRCUIT_BREAKER, parseDuration, type Destination } from './destination.js';
import { DestinationsFileError, loadDestinationsFile, parseDestinations } from './destinations-file.js';

const defaults = { maxAttempts: 10, timeoutMs: 10_000 };
const WHSEC = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const YAML_FILE = `
destinations:
  - name: support-bot            # messages of one number, in conversation order
    url: https://bot.internal.example.com/events
    secret: ${WHSEC}
    timeout: 5s
    filter:
      kind: message
      tenant: '106540352242922'
      match:
        fromMe: false
        payload.message.type: [text, interactive]
    ordering: conversation
    reorderWindow: 2s
  - name: crm
    url: https://crm.example.com/hooks/whatsapp
    secret: [new-crm-secret, old-crm-secret]
    filter: { kind: status, type: [delivered, read, failed] }
    rateLimit: { perSecond: 20, burst: 40 }
    maxAttempts: 25
  - name: warehouse
    url: http://warehouse.internal:8080/ingest
`;

const EXPECTED: Destination[] = [
  {
    name: 'support-bot', url: 'https://bot.internal.example.com/events', secrets: [WHSEC], timeoutMs: 5000,
    filter: { kind: ['message'], tenant: ['106540352242922'], match: { fromMe: false, 'payload.message.type': ['text', 'interactive'] } },
    ordering: 'conversation', reorderWindowMs: 2000, rateLimit: null, circuitBreaker: DEFAULT_CIRCUIT_BREAKER, maxAttempts: 10, enabled: true,
  },
  {
    name: 'crm', url: 'https://crm.example.com/hooks/whatsapp', secrets: ['new-crm-secret', 'old-crm-secret'], timeoutMs: 10_000,
    filter: { kind: ['status'], type: ['delivered', 'read', 'failed'] },
    ordering: 'none', reorderWindowMs: 0, rateLimit: { perSecond: 20, burst: 40 }, circuitBreaker: DEFAULT_CIRCUIT_BREAKER, maxAttempts: 25, enabled: true,
  },
  {
    name: 'warehouse', url: 'http://warehouse.internal:8080/ingest', secrets: [], timeoutMs: 10_000, filter: {},
    ordering: 'none', reorderWindowMs: 0, rateLimit: null, circuitBreaker: DEFAULT_CIRCUIT_BREAKER, maxAttempts: 10, enabled: true,
  },
];

/** The problems a YAML text has, one per line as the thrown message lists them. */
function problemsOf(text: string, format: 'yaml' | 'json' = 'yaml'): readonly string[] {
  try {
    parseDestinations(text, format, defaults, 'DESTINATIONS_FILE d.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(DestinationsFileError);
    return (error as DestinationsFileError).problems;
  }
  throw new Error('expected the file to be refused');
}

/** Problems of a one-entry file, without the file and entry prefix. */
function entryProblems(entry: string): string[] {
  const prefix = /^DESTINATIONS_FILE d\.yaml: destination 1( \([^)]*\))?: /;
  return problemsOf(`- name: x\n  url: https://x.example\n${entry}`).map((line) => line.replace(prefix, ''));
}

describe('parseDestinations', () => {
  it('reads a YAML file of three destinations', () => {
    expect(parseDestinations(YAML_FILE, 'yaml', defaults)).toEqual(EXPECTED);
  });

  it('reads the same file written as JSON, with single values where lists are expected', () => {
    const json = JSON.stringify({
      destinations: [
        {
          name: 'support-bot', url: 'https://bot.internal.example.com/events', secret: WHSEC, timeout: 5000, ordering: 'conversation', reorderWindowMs: 2000,
          filter: { kind: 'message', tenant: '106540352242922', match: { fromMe: false, 'payload.message.type': ['text', 'interactive'] } },
        },
        { name: 'crm', url: 'https://crm.example.com/hooks/whatsapp', secret: ['new-crm-secret', 'old-crm-secret'], filter: { kind: 'status', type: ['delivered', 'read', 'failed'] }, rateLimit: { perSecond: 20, burst: 40 }, maxAttempts: 25 },
        { name: 'warehouse', url: 'http://warehouse.internal:8080/ingest' },
      ],
    });
    expect(parseDestinations(json, 'json', defaults)).toEqual(EXPECTED);
  });

  it('takes a top-level list, and gives every setting its default', () => {
    const [destination] = parseDestinations('- { name: all, url: "https://a.example/x" }', 'yaml', { maxAttempts: 7, timeoutMs: 3000 });
    expect(destination).toEqual({
      name: 'all', url: 'https://a.example/x', secrets: [], timeoutMs: 3000, filter: {}, ordering: 'none', reorderWindowMs: 0,
      rateLimit: null, circuitBreaker: DEFAULT_CIRCUIT_BREAKER, maxAttempts: 7, enabled: true,
    });
  });

  it('treats a key left empty (null) as left out', () => {
    const [destination] = parseDestinations('- { name: a, url: "https://a.example", secret: ~, timeout: ~, filter: ~, rateLimit: ~, enabled: ~ }', 'yaml', defaults);
    expect(destination).toMatchObject({ secrets: [], timeoutMs: 10_000, filter: {}, rateLimit: null, enabled: true });
  });

  it('keeps disabled destinations, and shares settings through YAML anchors', () => {
    const destinations = parseDestinations(
      '- &base { name: a, url: "https://a.example", timeout: 20s, enabled: false }\n- { <<: *base, name: b, enabled: true }',
      'yaml',
      defaults,
    );
    expect(destinations.map((d) => [d.name, d.timeoutMs, d.enabled])).toEqual([['a', 20_000, false], ['b', 20_000, true]]);
  });

  it('defaults the burst to perSecond rounded up, at least 1', () => {
    const rateLimit = (perSecond: number) => parseDestinations(`- { name: a, url: "https://a.example", rateLimit: { perSecond: ${perSecond} } }`, 'yaml', defaults)[0].rateLimit;
    expect(rateLimit(20)).toEqual({ perSecond: 20, burst: 20 });
    expect(rateLimit(2.5)).toEqual({ perSecond: 2.5, burst: 3 });
    expect(rateLimit(0.5)).toEqual({ perSecond: 0.5, burst: 1 });
    expect(rateLimit(10_000)).toEqual({ perSecond: 10_000, burst: 10_000 });
  });

  it.each([
    ['500ms', 500], ['10s', 10_000], ['1.5s', 1500], ['1.1s', 1100], ['2m', 120_000], [' 3 s ', 3000], [2500, 2500],
  ])('reads the duration %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    const [destination] = parseDestinations(JSON.stringify([{ name: 'a', url: 'https://a.example', timeout: text }]), 'json', defaults);
    expect(destination.timeoutMs).toBe(ms);
  });

  it.each(['10', '1h', '0.5ms', '-1s', 'ten seconds', '1e3ms', true])('refuses the duration %j', (value) => {
    expect(entryProblems(`  timeout: ${JSON.stringify(value)}`)).toEqual(['timeout must be a whole number of milliseconds or a duration like 500ms, 10s or 2m']);
  });

  it('bounds the timeout and the reorder window, and keeps the window to conversation ordering', () => {
    expect(entryProblems('  timeout: 99')).toEqual(['timeout must be between 100 and 120000 ms']);
    expect(entryProblems('  timeout: 121s')).toEqual(['timeout must be between 100 and 120000 ms']);
    expect(entryProblems('  ordering: conversation\n  reorderWindow: 61s')).toEqual(['reorderWindow must be between 0 and 60000 ms']);
    expect(entryProblems('  reorderWindowMs: 500')).toEqual(['reorderWindowMs needs ordering: conversation']);
    expect(entryProblems('  ordering: conversation\n  reorderWindow: 1s\n  reorderWindowMs: 1000')).toEqual([
      'reorderWindow and reorderWindowMs are the same setting: give only one',
    ]);
    const [destination] = parseDestinations('- { name: a, url: "https://a.example", ordering: conversation, reorderWindow: 60s }', 'yaml', defaults);
    expect(destination.reorderWindowMs).toBe(60_000);
  });

  it('lists every problem of the file, naming the file, the entry and the field', () => {
    const text = `
destinations:
  - name: support-bot
    url: ftp://bot.example.com
    secret: [${WHSEC}, short]
    ordering: sorted
    rateLimt: { perSecond: 5 }
  - name: crm
    url: https://crm.example.com
    rateLimit: { perSecond: 0, burst: 1.5 }
    maxAttempts: 101
    enabled: 'yes'
  - url: https://nameless.example.com
  - name: CRM Main
    url: https://crm2.example.com
    filter: { source: [meta, metaa], tenant: 106540352242922 }
  - name: crm
    url: https://crm3.example.com
  - just a string
`;
    expect(problemsOf(text)).toEqual([
      'DESTINATIONS_FILE d.yaml: destination 1 (support-bot): rateLimt is not a known key (name, url, secret, timeout, filter, ordering, reorderWindow, reorderWindowMs, rateLimit, circuitBreaker, maxAttempts, enabled)',
      'DESTINATIONS_FILE d.yaml: destination 1 (support-bot): url must be an absolute http(s) URL',
      'DESTINATIONS_FILE d.yaml: destination 1 (support-bot): secret #2 must be at least 8 characters',
      'DESTINATIONS_FILE d.yaml: destination 1 (support-bot): ordering must be none or conversation',
      'DESTINATIONS_FILE d.yaml: destination 2 (crm): rateLimit.perSecond must be a positive number',
      'DESTINATIONS_FILE d.yaml: destination 2 (crm): rateLimit.burst must be a whole number of at least 1',
      'DESTINATIONS_FILE d.yaml: destination 2 (crm): maxAttempts must be a whole number between 1 and 100',
      'DESTINATIONS_FILE d.yaml: destination 2 (crm): enabled must be true or false',
      'DESTINATIONS_FILE d.yaml: destination 3: name is required',
      'DESTINATIONS_FILE d.yaml: destination 4 ("CRM Main"): name must be 1 to 63 lowercase letters, digits, _ or -, starting with a letter or a digit',
      'DESTINATIONS_FILE d.yaml: destination 4 ("CRM Main"): filter.source "metaa" is not one of meta, wasender, generic, twilio, 360dialog, waha, evolution',
      'DESTINATIONS_FILE d.yaml: destination 4 ("CRM Main"): filter.tenant holds the number 106540352242922; write it in quotes',
      'DESTINATIONS_FILE d.yaml: destination 5 (crm): name crm is already used by destination 2',
      'DESTINATIONS_FILE d.yaml: destination 6: must be a mapping of settings (name, url, secret, timeout, filter, ordering, reorderWindow, reorderWindowMs, rateLimit, circuitBreaker, maxAttempts, enabled)',
    ]);
  });

  it('throws one error whose message lists the problems', () => {
    expect(() => parseDestinations('- { name: a, url: "https://a.example", rateLimit: { perSecond: 20000 } }\n- { name: a, url: "https://b.example" }', 'yaml', defaults))
      .toThrow(
        'Invalid destinations file:\n' +
          '  - DESTINATIONS_FILE: destination 1 (a): rateLimit.perSecond must be at most 10000\n' +
          '  - DESTINATIONS_FILE: destination 2 (a): name a is already used by destination 1',
      );
  });

  it('checks secrets as FORWARD_SECRET is checked, never quoting one', () => {
    const shortKey = `whsec_${Buffer.alloc(8, 1).toString('base64')}`;
    expect(entryProblems(`  secret: [${shortKey}, "whsec_not base64!", 12345678, plain-but-long-enough]`)).toEqual([
      'secret #1 must hold at least 16 bytes after whsec_',
      'secret #2 must be whsec_ followed by base64',
      'secret #3 must be a string (in quotes if it looks like a number)',
    ]);
    expect(entryProblems('  secret: short')).toEqual(['secret must be at least 8 characters']);
    expect(parseDestinations('- { name: a, url: "https://a.example", secret: [] }', 'yaml', defaults)[0].secrets).toEqual([]);
  });

  it('refuses other malformed settings with a message each', () => {
    expect(problemsOf('- { name: a, url: not a url }')).toEqual(['DESTINATIONS_FILE d.yaml: destination 1 (a): url must be an absolute http(s) URL']);
    expect(problemsOf('- { name: a }')).toEqual(['DESTINATIONS_FILE d.yaml: destination 1 (a): url is required']);
    expect(entryProblems('  rateLimit: 20')).toEqual(['rateLimit must be a mapping like { perSecond: 20, burst: 40 }']);
    expect(entryProblems('  rateLimit: { burst: 5, perSecnd: 1 }')).toEqual(['rateLimit.perSecnd is not a known key (perSecond, burst)', 'rateLimit.perSecond is required']);
    expect(entryProblems('  rateLimit: { perSecond: "20" }')).toEqual(['rateLimit.perSecond must be a positive number']);
  });

  it.each([
    ['', 'yaml', 'DESTINATIONS_FILE d.yaml: is empty'],
    ['  \n', 'json', 'DESTINATIONS_FILE d.yaml: is empty'],
    ['# nothing yet\n', 'yaml', 'DESTINATIONS_FILE d.yaml: is empty'],
    ['destinations: []', 'yaml', 'DESTINATIONS_FILE d.yaml: lists no destinations'],
    ['destinations:', 'yaml', 'DESTINATIONS_FILE d.yaml: lists no destinations'],
    ['{"destinations": {"name": "a"}}', 'json', 'DESTINATIONS_FILE d.yaml: must be a list of destinations, or a mapping whose key destinations holds that list'],
    ['"https://a.example"', 'json', 'DESTINATIONS_FILE d.yaml: must be a list of destinations, or a mapping whose key destinations holds that list'],
    ['destinations:\n  - name: a\n    name: b\n', 'yaml', 'DESTINATIONS_FILE d.yaml: invalid YAML: Map keys must be unique at line 3, column 5'],
    ['destinations: [ { name: a }\nother: 1\n', 'yaml', expect.stringMatching(/^DESTINATIONS_FILE d\.yaml: invalid YAML: .* at line \d+, column \d+$/)],
    ['- !secret abc\n', 'yaml', 'DESTINATIONS_FILE d.yaml: invalid YAML: Unresolved tag: !secret at line 1, column 3'],
    ['{\n  "destinations": [\n    { "name": "a" "url": "x" }\n  ]\n}', 'json', expect.stringMatching(/^DESTINATIONS_FILE d\.yaml: invalid JSON: .*line 3,? column 19\)$/)],
  ] as const)('refuses %j as a whole', (text, format, problem) => {
    expect(problemsOf(text, format)).toEqual([problem]);
  });

  it('reads keys as own properties: __proto__ and constructor are unknown keys, never prototypes', () => {
    const json = '[{"name": "a", "url": "https://a.example", "__proto__": {"enabled": false}, "rateLimit": {"perSecond": 1, "constructor": 1}}]';
    expect(problemsOf(json, 'json')).toEqual([
      'DESTINATIONS_FILE d.yaml: destination 1 (a): __proto__ is not a known key (name, url, secret, timeout, filter, ordering, reorderWindow, reorderWindowMs, rateLimit, circuitBreaker, maxAttempts, enabled)',
      'DESTINATIONS_FILE d.yaml: destination 1 (a): rateLimit.constructor is not a known key (perSecond, burst)',
    ]);
    expect(problemsOf('- { name: a, url: "https://a.example", __proto__: { enabled: false } }')).toHaveLength(1);
    expect(({} as Record<string, unknown>).enabled).toBeUndefined();
  });
});

describe('loadDestinationsFile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'destinations-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('reads by extension, and tries JSON then YAML for any other name', () => {
    const json = JSON.stringify({ destinations: [{ name: 'a', url: 'https://a.example' }] });
    for (const path of [write('d.yaml', YAML_FILE), write('d.YML', YAML_FILE), write('d', YAML_FILE)]) {
      expect(loadDestinationsFile(path, defaults)).toEqual(EXPECTED);
    }
    for (const path of [write('d.json', `\uFEFF${json}`), write('d.conf', json)]) {
      expect(loadDestinationsFile(path, defaults).map((d) => d.name)).toEqual(['a']);
    }
  });

  it('names the file in every message', () => {
    const path = write('bad.json', '[{"name": "a", "url": "https://a.example", "timeout": "1h"}]');
    expect(() => loadDestinationsFile(path, defaults)).toThrow(
      `DESTINATIONS_FILE ${path}: destination 1 (a): timeout must be a whole number of milliseconds or a duration like 500ms, 10s or 2m`,
    );
    // JSON.parse would take the YAML front as garbage; a .json file is JSON only.
    expect(() => loadDestinationsFile(write('yaml.json', YAML_FILE), defaults)).toThrow(`DESTINATIONS_FILE ${join(dir, 'yaml.json')}: invalid JSON: `);
    expect(() => loadDestinationsFile(join(dir, 'missing.yaml'), defaults)).toThrow(
      `DESTINATIONS_FILE ${join(dir, 'missing.yaml')}: cannot be read (ENOENT: no such file or directory`,
    );
    expect(() => loadDestinationsFile(dir, defaults)).toThrow(`DESTINATIONS_FILE ${dir}: cannot be read (EISDIR`);
  });

  it('accepts the example an operator copies (docs/destinations.example.yaml)', () => {
    const path = new URL('../../docs/destinations.example.yaml', import.meta.url).pathname;
    const destinations = loadDestinationsFile(path, defaults);
    expect(destinations.map((d) => [d.name, d.ordering, d.rateLimit, d.filter])).toEqual([
      ['support-bot', 'conversation', null, { source: ['meta'], kind: ['message'], tenant: ['106540352242922'], match: { fromMe: false, 'payload.message.type': ['text', 'interactive', 'button'] } }],
      ['crm', 'none', { perSecond: 20, burst: 40 }, { kind: ['status'], type: ['sent', 'delivered', 'read', 'failed'] }],
      ['warehouse', 'none', null, {}],
    ]);
    expect(readFileSync(path, 'utf8')).toContain('DESTINATIONS_FILE');
  });
});
