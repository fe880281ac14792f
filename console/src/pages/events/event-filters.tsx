import { useEffect, useState } from 'preact/hooks';
import { KINDS, SOURCE_NAMES, STATUSES } from '../../api/types';
import { fromLocalInput, toLocalInput, type FilterName, type Filters } from './filters';

interface Props {
  filters: Filters;
  onApply(filters: Filters): void;
  /** Dead letters: the status is fixed, so it is not offered. */
  fixedStatus?: boolean;
  /** The configured destinations (GET /destinations); none: the filter is not offered. */
  destinations?: readonly string[];
  /** The destination choice's empty option: what the page lists without one. */
  noDestination?: string;
}

function Choice({ name, label, values, value, onChange, empty = 'any' }: { name: FilterName; label: string; values: readonly string[]; value: string; onChange(v: string): void; empty?: string }) {
  return (
    <div class="field">
      <label for={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{empty}</option>
        {values.map((v) => (
          <option key={v} value={v}>{v}</option>
        ))}
      </select>
    </div>
  );
}

function Text({ name, label, value, type = 'text', onChange }: { name: FilterName; label: string; value: string; type?: 'text' | 'datetime-local'; onChange(v: string): void }) {
  return (
    <div class="field">
      <label for={`filter-${name}`}>{label}</label>
      {type === 'datetime-local' ? (
        <input id={`filter-${name}`} type="datetime-local" step={1} value={value} onInput={(e) => onChange(e.currentTarget.value)} />
      ) : (
        <input id={`filter-${name}`} type="text" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
      )}
    </div>
  );
}

/** Every filter of GET /messages; applying it writes them into the URL hash. */
export function EventFilters({ filters, onApply, fixedStatus, destinations = [], noDestination = 'any' }: Props) {
  const [draft, setDraft] = useState<Filters>(filters);
  const applied = JSON.stringify(filters);
  useEffect(() => setDraft(filters), [applied]);
  const set = (name: FilterName) => (value: string) => setDraft((d) => ({ ...d, [name]: value === '' ? undefined : value }));
  const submit = (event: Event) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form class="filters card" onSubmit={submit} aria-label="Filters">
      {!fixedStatus && <Choice name="status" label="Status" values={STATUSES} value={draft.status ?? ''} onChange={set('status')} />}
      <Choice name="provider" label="Source" values={SOURCE_NAMES} value={draft.provider ?? ''} onChange={set('provider')} />
      <Choice name="kind" label="Kind" values={KINDS} value={draft.kind ?? ''} onChange={set('kind')} />
      <Text name="type" label="Type" value={draft.type ?? ''} onChange={set('type')} />
      <Text name="from" label="From (number or user id)" value={draft.from ?? ''} onChange={set('from')} />
      <Text name="tenant" label="Tenant" value={draft.tenant ?? ''} onChange={set('tenant')} />
      {destinations.length > 0 && (
        <Choice name="destination" label="Destination" values={destinations} value={draft.destination ?? ''} onChange={set('destination')} empty={noDestination} />
      )}
      {!fixedStatus && draft.destination && <p class="muted hint">With a destination, the status is that delivery’s, not the event’s.</p>}
      <Text name="since" label="Received since" type="datetime-local" value={toLocalInput(draft.since)} onChange={(v) => set('since')(fromLocalInput(v) ?? '')} />
      <Text name="until" label="Received before" type="datetime-local" value={toLocalInput(draft.until)} onChange={(v) => set('until')(fromLocalInput(v) ?? '')} />
      <Choice name="limit" label="Per page" values={['25', '100', '200']} value={draft.limit ?? ''} onChange={set('limit')} empty="50" />
      <div class="actions">
        <button type="submit">Apply filters</button>
        <button type="button" class="secondary" onClick={() => onApply({})}>Clear</button>
      </div>
    </form>
  );
}
