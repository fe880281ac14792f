import type { LintedMigration } from './lint.js';
import type { Violation } from './violation.js';

/**
 * Migrations applied before the lint existed that break one of its rules. They cannot be fixed:
 * _prisma_migrations records each file's SHA-256, so each entry pins that checksum and stops
 * excusing anything the day the file changes. What upgrading across them costs, and how to do it
 * safely: docs/deployment.md, "Upgrade notes".
 */
export interface BaselineEntry {
  migration: string;
  rule: string;
  sha256: string;
  reason: string;
}

const PROCESSING = 'c83ee544992515dd4e3ea3322fbd3723a0d845c15226d4758e1a5c8fee18856c';
const INSPECTION = '6b7ce01373c9d7eb27d64f8ddda620c5f2738e4ca7060803cc2a52377e8d51a0';
const RETENTION = '4477f2410c94b459e71271f0660e07db8e16a2da11c7351f12673c5fa98e1ffe';
const TRUST_BOUNDARY = 'd3dfc9968a37a4d13f4b1e20eb63b2ffefbb28cb135151f371b67303e4dfcb71';

export const BASELINE: readonly BaselineEntry[] = [
  {
    migration: '20261129120000_processing', rule: 'squawk:require-concurrent-index-creation', sha256: PROCESSING,
    reason: 'messages_due_idx, from the second release, when the inbox had no history to speak of; a SHARE lock on messages for the build',
  },
  {
    migration: '20261129130000_inspection_indexes', rule: 'squawk:require-concurrent-index-creation', sha256: INSPECTION,
    reason: 'two inspection indexes built under one SHARE lock on messages, before CONCURRENTLY migrations were supported (20261202000100 is the first)',
  },
  {
    migration: '20261129140000_retention', rule: 'squawk:require-concurrent-index-creation', sha256: RETENTION,
    reason: 'deliveries_updated_at_idx built under a SHARE lock on deliveries: status events wait for the build',
  },
  {
    migration: '20261201120000_trust_boundary', rule: 'one-busy-table', sha256: TRUST_BOUNDARY,
    reason: 'adds columns to messages (ACCESS EXCLUSIVE) then rebuilds the deliveries primary key in the same transaction: claims wait for the whole build (issue 20, point 7)',
  },
  {
    migration: '20261201120000_trust_boundary', rule: 'squawk:adding-serial-primary-key-field', sha256: TRUST_BOUNDARY,
    reason: 'deliveries_pkey rebuilt under ACCESS EXCLUSIVE rather than swapped in USING INDEX; no pre-built index can be reused by it',
  },
  {
    migration: '20261201120000_trust_boundary', rule: 'squawk:constraint-missing-not-valid', sha256: TRUST_BOUNDARY,
    reason: 'the same primary key statement, as squawk words it (a primary key cannot be NOT VALID: USING INDEX is the way)',
  },
];

/**
 * Violations the baseline does not excuse, and baseline entries that no longer hold (file edited
 * or gone, or the rule no longer broken), each as a sentence.
 */
export function checkBaseline(migrations: LintedMigration[], violations: Violation[], baseline = BASELINE) {
  const excused = (v: Violation) => baseline.some((b) => b.migration === v.migration && b.rule === v.rule &&
    migrations.find((m) => m.name === v.migration)?.checksum === b.sha256);
  const stale = baseline.flatMap((b) => {
    const m = migrations.find((x) => x.name === b.migration);
    if (!m) return [`${b.migration} is in the baseline but not in the migrations folder`];
    if (m.checksum !== b.sha256) return [`${m.file} changed after it was applied (sha256 ${m.checksum}, baseline ${b.sha256})`];
    if (!violations.some((v) => v.migration === b.migration && v.rule === b.rule)) return [`${b.migration} no longer breaks ${b.rule}: remove it from the baseline`];
    return [];
  });
  return { unexpected: violations.filter((v) => !excused(v)), stale };
}
