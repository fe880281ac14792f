import { positional } from './positional-sql.js';

const tag = (strings: TemplateStringsArray, ..._values: unknown[]) => positional(strings);

describe('positional', () => {
  it('numbers the parameters in order, and leaves SQL without any unchanged', () => {
    expect(tag`SELECT ${1}::int + ${2}, ${'x'}`).toBe('SELECT $1::int + $2, $3');
    expect(tag`SELECT 1`).toBe('SELECT 1');
    expect(tag`${'a'}`).toBe('$1');
  });
});
