// Reading the settings files (DESTINATIONS_FILE, TENANTS_FILE): each reader reports what is
// wrong and lets the caller go on, so that one boot lists every problem of a file.

/** Where a file problem is reported: the field's dotted name and what is wrong with it. */
export type ReportProblem = (field: string, problem: string) => void;

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only: `__proto__`, `constructor` or `toString` never reach a prototype. */
export function ownValue(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** Unknown keys are errors: a misspelt setting must not silently fall back to its default. */
export function checkKeys(mapping: Record<string, unknown>, known: readonly string[], prefix: string, report: ReportProblem): void {
  for (const key of Object.keys(mapping)) {
    if (!known.includes(key)) report(`${prefix}${key}`, `is not a known key (${known.join(', ')})`);
  }
}
