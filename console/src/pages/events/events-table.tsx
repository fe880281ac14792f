import type { MessageSummary } from '../../api/types';
import { StatusBadge, Time, Value } from '../../components/format';
import { eventHref } from '../../router';

export interface Selection {
  selected: ReadonlySet<string>;
  toggle(id: string): void;
  setAll(ids: string[], on: boolean): void;
}

/** Events of one page; each id links to its detail. With `selection`, a checkbox per row and one for the page. */
export function EventsTable({ items, selection, caption }: { items: MessageSummary[]; selection?: Selection; caption: string }) {
  if (items.length === 0) return <p class="muted">No event matches these filters.</p>;
  const ids = items.map((item) => item.id);
  const allOn = selection !== undefined && ids.every((id) => selection.selected.has(id));
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col">
                <input type="checkbox" aria-label="Select every event on this page" checked={allOn} onChange={() => selection.setAll(ids, !allOn)} />
              </th>
            )}
            <th scope="col">Received</th>
            <th scope="col">Event</th>
            <th scope="col">Source</th>
            <th scope="col" class="wide">Kind</th>
            <th scope="col">Type</th>
            <th scope="col" class="wide">From</th>
            <th scope="col" class="wide">Tenant</th>
            <th scope="col">Status</th>
            <th scope="col" class="wide">Attempts</th>
            <th scope="col" class="wide">Duplicates</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              {selection && (
                <td>
                  <input type="checkbox" aria-label={`Select ${item.id}`} checked={selection.selected.has(item.id)} onChange={() => selection.toggle(item.id)} />
                </td>
              )}
              <td><Time at={item.receivedAt} /></td>
              <td class="id"><a href={eventHref(item.id)}>{item.id}</a></td>
              <td>{item.provider}</td>
              <td class="wide">{item.kind}</td>
              <td>{item.type}</td>
              <td class="wide"><Value value={item.from} /></td>
              <td class="wide"><Value value={item.tenant} /></td>
              <td>
                <StatusBadge status={item.status} />
                {item.lastError && <span class="visually-hidden">: {item.lastError}</span>}
              </td>
              <td class="wide num">{item.attempts}</td>
              <td class="wide num">{item.duplicateCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
