import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// The documentation is split over README.md, docs/ and bench/README.md, and pages link to each
// other's sections: a moved or renamed heading must not leave a link pointing nowhere. No network:
// only relative links are checked (the file, and the heading when the link names one).
const ROOT = process.cwd();
const README_MAX_BYTES = 25_000; // the README is the user's guide; the rest belongs in docs/

function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', 'bench/README.md', ...docs];
}

/** The text outside fenced code blocks and inline code spans, where a `[x](y)` is not a link. */
function prose(markdown: string): string[] {
  let fenced = false;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      lines.push('');
      continue;
    }
    lines.push(fenced ? '' : line.replace(/`[^`]*`/g, ''));
  }
  return lines;
}

/** Paths of source files written in code spans: `src/queue/lease-keeper.ts`, or `queue/lease-keeper.ts` under src/. */
function namedFiles(line: string): string[] {
  return [...line.matchAll(/`((?:[\w.-]+\/)+[\w.-]+\.(?:ts|mjs|sql|ya?ml|json))`/g)].map((match) => match[1]);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), spaces to `-`. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

function relativeLinks(page: string): Link[] {
  const links: Link[] = [];
  prose(readFileSync(join(ROOT, page), 'utf8')).forEach((text, index) => {
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      links.push({ page, line: index + 1, target });
    }
  });
  return links;
}

/** Why a link is broken, or null. */
function brokenBecause(link: Link): string | null {
  const [path, anchor] = link.target.split('#', 2);
  const file = path === '' ? join(ROOT, link.page) : join(ROOT, dirname(link.page), decodeURIComponent(path));
  if (!existsSync(file)) return `${relative(ROOT, file)} does not exist`;
  if (anchor === undefined || anchor === '' || !file.endsWith('.md') || statSync(file).isDirectory()) return null;
  return anchors(file).has(decodeURIComponent(anchor)) ? null : `${relative(ROOT, file)} has no heading #${anchor}`;
}

describe('documentation', () => {
  it('every relative link of README.md, docs/*.md and bench/README.md points to an existing file and heading', () => {
    const broken = pages()
      .flatMap(relativeLinks)
      .map((link) => ({ link, why: brokenBecause(link) }))
      .filter(({ why }) => why !== null)
      .map(({ link, why }) => `${link.page}:${link.line}: (${link.target}): ${why}`);
    expect(broken).toEqual([]);
  });

  it('finds the links it checks (the checker itself is not blind)', () => {
    const targets = relativeLinks('README.md').map((link) => link.target);
    expect(targets).toContain('docs/sources.md');
    expect(targets.some((target) => target.includes('#'))).toBe(true);
    expect(brokenBecause({ page: 'README.md', line: 0, target: 'docs/sources.md#no-such-heading' })).toMatch(/no heading/);
    expect(brokenBecause({ page: 'README.md', line: 0, target: 'docs/no-such-page.md' })).toMatch(/does not exist/);
    expect(slug('Processing (worker → forward step)')).toBe('processing-worker--forward-step');
    expect(slug('Upgrading across 20261201120000_trust_boundary')).toBe('upgrading-across-20261201120000_trust_boundary');
  });

  it('every source file a page names in code spans exists (a moved file must not leave its old path in the docs)', () => {
    const missing = pages().flatMap((page) =>
      readFileSync(join(ROOT, page), 'utf8').split('\n').flatMap((text, i) =>
        namedFiles(text).filter((path) => !existsSync(join(ROOT, path)) && !existsSync(join(ROOT, 'src', path))).map((path) => `${page}:${i + 1}: ${path}`),
      ),
    );
    expect(missing).toEqual([]);
    expect(namedFiles('see `src/queue/queue-worker.ts` and `inbox/worker.service.ts`, not `npm test`')).toEqual(['src/queue/queue-worker.ts', 'inbox/worker.service.ts']);
  });

  it(`README.md stays the user's guide: under ${README_MAX_BYTES} bytes`, () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(README_MAX_BYTES);
  });
});
