import type { MessageDetail } from '../../api/types';
import { FieldList, type Field } from '../../components/field-list';
import { StatusBadge, Time, Value } from '../../components/format';

/** The normalized fields, exactly as the API returns them (numbers are never re-masked or unmasked). */
export function EventFields({ event }: { event: MessageDetail }) {
  const rows: Field[] = [
    ['Idempotency key', <code>{event.id}</code>],
    ['Status', <StatusBadge status={event.status} />],
    ['Source', event.provider],
    ['Kind', event.kind],
    ['Type', event.type],
    ['From', <Value value={event.from} />],
    ['From user id', <Value value={event.fromUserId} />],
    ['Tenant', <Value value={event.tenant} />],
    ['Sent by the business', event.fromMe ? 'yes' : 'no'],
    ['Signature verified', event.authenticated ? 'yes' : 'no'],
    ['Source time', <Time at={event.timestamp} />],
    ['Received', <Time at={event.receivedAt} />],
    ['Duplicates suppressed', event.duplicateCount],
    ['Last duplicate', <Time at={event.lastDuplicateAt} />],
    ['Attempts', event.attempts],
    ['Last error', <Value value={event.lastError} />],
    ['Processed', <Time at={event.processedAt} />],
    ['Replays from the start', event.replays],
  ];
  return <FieldList fields={rows} />;
}
