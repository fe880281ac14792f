/** One broken rule: which, where (migration, file, line), the statement, and why it matters. */
export interface Violation {
  rule: string;
  migration: string;
  file: string;
  line: number;
  statement: string;
  message: string;
}

export function formatViolation(v: Violation): string {
  return `${v.rule}: ${v.file}:${v.line}: ${v.statement}\n    ${v.message}`;
}
