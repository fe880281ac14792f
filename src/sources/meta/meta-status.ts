import { ladderStatus, type StatusFacts } from '../shared/status-ladder.js';
import type { NormalizedEvent } from '../shared/normalized-event.js';
import { arrayOf, isJsonObject, objectAt, readString, readText } from '../shared/payload-values.js';

/** Meta's statuses (and 360dialog's, the same shape): the parser keeps the item as `raw.status`, the value lowercased as `type`. */
export function readMetaStatus({ raw, type }: NormalizedEvent): StatusFacts {
  const status = objectAt(raw, 'status');
  return { messageId: readString(status?.id), status: ladderStatus(type), error: metaError(status?.errors) };
}

/** `131026 Message undeliverable: <details>` from Meta's first error; null when it gives none. */
function metaError(errors: unknown): string | null {
  const [first] = arrayOf(errors);
  if (!isJsonObject(first)) return null;
  const headline = [readText(first.code), readString(first.title)].filter((part) => part !== null).join(' ');
  const details = readString(objectAt(first, 'error_data')?.details) ?? readString(first.message);
  return [headline, details === first.title ? null : details].filter((part) => part).join(': ') || null;
}
