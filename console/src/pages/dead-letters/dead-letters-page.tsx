import { useState } from 'preact/hooks';
import type { BulkReplayQuery } from '../../api/types';
import { AsyncView } from '../../components/async-view';
import { Pager } from '../../components/pager';
import { href, navigate } from '../../router';
import { EventFilters } from '../events/event-filters';
import { EventsTable } from '../events/events-table';
import { filtersFromParams, toListQuery } from '../events/filters';
import { useDestinationNames } from '../events/use-destination-names';
import { useEventPages } from '../events/use-event-pages';
import { BulkReplay } from './bulk-replay';
import { replaySelected, type ReplayOutcome } from './replay-selected';

/**
 * Dead events (GET /messages?status=dead) with the filters, or with a destination chosen the
 * events whose delivery to it is dead (the events themselves are processed); replay a selection,
 * or all that match.
 */
export function DeadLettersPage({ params }: { params: URLSearchParams }) {
  const filters = { ...filtersFromParams(params), status: 'dead' };
  const { destination } = filters;
  const destinations = useDestinationNames();
  const query = toListQuery(filters);
  const pages = useEventPages(query);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ReplayOutcome>();
  const selection = {
    selected,
    toggle: (id: string) => setSelected((s) => { const n = new Set(s); if (!n.delete(id)) n.add(id); return n; }),
    setAll: (ids: string[], on: boolean) => setSelected((s) => { const n = new Set(s); for (const id of ids) if (on) n.add(id); else n.delete(id); return n; }),
  };
  const replay = async () => {
    setBusy(true);
    setOutcome(await replaySelected([...selected], destination));
    setSelected(new Set());
    setBusy(false);
    pages.state.reload();
  };
  const { limit: _limit, ...bulkQuery } = query;
  return (
    <section aria-labelledby="page-heading">
      <h1 id="page-heading">{destination ? `Dead letters: deliveries to ${destination}` : 'Dead letters'}</h1>
      <EventFilters
        filters={filters} fixedStatus destinations={destinations} noDestination="none (dead events)"
        onApply={({ status: _s, ...f }) => navigate(href('/dead', f))}
      />
      <div class="toolbar">
        <button type="button" disabled={selected.size === 0 || busy} onClick={() => void replay()}>
          Replay selected ({selected.size})
        </button>
        <div aria-live="polite" data-testid="replay-outcome">
          {busy && <span>Replaying…</span>}
          {outcome && !busy && <span>Replayed {outcome.replayed.length}{outcome.failed.length > 0 && `, ${outcome.failed.length} refused`}.</span>}
        </div>
      </div>
      {outcome && outcome.failed.length > 0 && (
        <ul role="alert" class="error">
          {outcome.failed.map((f) => <li key={f.id}>{f.id}: {f.message}</li>)}
        </ul>
      )}
      <AsyncView state={pages.state} label="dead events">
        {(page) => (
          <>
            <EventsTable items={page.items} selection={selection} caption={destination ? `Events whose delivery to ${destination} is dead, newest first` : 'Dead events, newest first'} />
            <Pager pageNumber={pages.pageNumber} previous={pages.previous} next={pages.next} />
          </>
        )}
      </AsyncView>
      <BulkReplay query={bulkQuery as BulkReplayQuery} noun={destination ? { one: `dead delivery to ${destination}`, many: `dead deliveries to ${destination}` } : { one: 'dead event', many: 'dead events' }} onDone={pages.state.reload} />
    </section>
  );
}
