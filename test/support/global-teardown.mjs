import { rmSync } from 'node:fs';

export default function globalTeardown() {
  if (process.env.WDD_TEST_PGLITE_TEMPLATE) rmSync(process.env.WDD_TEST_PGLITE_TEMPLATE, { force: true });
}
