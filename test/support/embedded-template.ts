import { readFileSync } from 'node:fs';

/**
 * The empty cluster test/support/global-setup.mjs dumped once for the suite, to start each
 * embedded database from instead of an initdb; undefined when jest ran without it.
 */
export function embeddedTemplate(): Blob | undefined {
  const path = process.env.WDD_TEST_PGLITE_TEMPLATE;
  return path ? new Blob([readFileSync(path)]) : undefined;
}
