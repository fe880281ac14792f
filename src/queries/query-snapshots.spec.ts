import { readdir, readFile, writeFile } from 'node:fs/promises';
import { SNAPSHOTS } from './query-examples.js';
import { renderSnapshot } from './query-snapshots.js';

/**
 * Every repository statement's final SQL is checked in under src/queries/<file>.sql, so a
 * change to a statement shows in review as a diff of its text. `npm run sql:snapshots` runs
 * this with UPDATE_SQL_SNAPSHOTS=1, which writes the files instead of comparing.
 */
const DIR = new URL('./', import.meta.url);
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';
const HINT = 'run `npm run sql:snapshots` and commit the result';

describe('SQL snapshots (src/queries/*.sql)', () => {
  it.each(Object.keys(SNAPSHOTS))('%s.sql holds the text its statements compile to', async (file) => {
    const path = new URL(`${file}.sql`, DIR);
    const text = renderSnapshot(SNAPSHOTS[file]);
    if (UPDATE) await writeFile(path, text);
    const checkedIn = await readFile(path, 'utf8').catch(() => '');
    if (checkedIn !== text) throw new Error(`src/queries/${file}.sql differs from what its statements compile to: ${HINT}`);
  });

  it('has no snapshot file without statements', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.sql')).map((f) => f.slice(0, -4));
    expect(files.filter((f) => !(f in SNAPSHOTS))).toEqual([]);
  });
});
