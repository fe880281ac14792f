import type { MessageDetail } from '../../api/types';
import { Time } from '../../components/format';

type Entry = MessageDetail['timeline'][number];

const TITLES: Record<Entry['kind'], string> = {
  received: 'Received',
  duplicate: 'Duplicates suppressed',
  step: 'Step done',
  'attempt-failed': 'Attempt failed',
  delivery: 'Delivered to destination',
  'delivery-failed': 'Delivery attempt failed',
  dead: 'Dead (attempts exhausted)',
  replayed: 'Replayed',
  processed: 'Processed',
};

function describe(entry: Entry): string {
  const parts: string[] = [];
  if (entry.step) parts.push(`step ${entry.step}`);
  if (entry.destination) parts.push(`destination ${entry.destination}`);
  if (entry.attempt !== undefined) parts.push(`attempt ${entry.attempt}`);
  if (entry.count !== undefined) parts.push(`${entry.count} in all, the last at this time`);
  if (entry.fromStart) parts.push('from the start, under a new key');
  return parts.join(' · ');
}

/** What happened to the event, oldest first (GET /messages/{id} timeline). */
export function TimelineView({ entries }: { entries: Entry[] }) {
  return (
    <ol class="timeline">
      {entries.map((entry, index) => (
        <li key={index} class={`tl tl-${entry.kind}`}>
          <Time at={entry.at} /> <strong>{TITLES[entry.kind]}</strong>
          {describe(entry) && <span class="muted"> — {describe(entry)}</span>}
          {entry.error && <div class="error-text">Error: {entry.error}</div>}
        </li>
      ))}
    </ol>
  );
}
