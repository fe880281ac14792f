import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurationReference, CONFIGURATION_REFERENCE } from './config/configuration-reference.js';
import { settingsOf } from './config/settings/setting.js';
import { SETTINGS } from './settings.js';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the settings classes', () => {
    const page = readFileSync(CONFIGURATION_REFERENCE, 'utf8');
    if (page !== configurationReference(SETTINGS)) {
      throw new Error('docs/configuration.md is out of date: run `npm run docs:config` and commit the result');
    }
  });

  it('lists every variable once, under its feature', () => {
    const names = SETTINGS.flatMap((settings) => [...settingsOf(settings).keys()]);
    expect(new Set(names).size).toBe(names.length);
    const page = configurationReference(SETTINGS);
    for (const name of names) expect(page).toContain(`| \`${name}\` |`);
  });
});

describe('the variables the code reads', () => {
  it('are all declared in a settings class, so the reference lists them', () => {
    const documented = new Set(SETTINGS.flatMap((settings) => [...settingsOf(settings).keys()]));
    const read = new Set(sourceFiles(fileURLToPath(new URL('.', import.meta.url))).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)].map((match) => match[1]),
    ));
    expect(read.size).toBeGreaterThan(0);
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}
