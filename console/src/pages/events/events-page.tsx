import { useState } from 'preact/hooks';
import { AsyncView } from '../../components/async-view';
import { Pager } from '../../components/pager';
import { RefreshStatus } from '../../components/refresh-status';
import { href, navigate } from '../../router';
import { EventFilters } from './event-filters';
import { useDestinationNames } from './use-destination-names';
import { EventsTable } from './events-table';
import { filtersFromParams, toListQuery } from './filters';
import { useEventPages } from './use-event-pages';

const LIVE_MS = 5000;

/** GET /messages with every filter (kept in the URL hash), cursor paging and live refresh. */
export function EventsPage({ params }: { params: URLSearchParams }) {
  const filters = filtersFromParams(params);
  const [live, setLive] = useState(false);
  const pages = useEventPages(toListQuery(filters), live ? LIVE_MS : undefined);
  const destinations = useDestinationNames();
  return (
    <section aria-labelledby="page-heading">
      <h1 id="page-heading">Events</h1>
      <EventFilters filters={filters} destinations={destinations} onApply={(f) => navigate(href('/events', f))} />
      <div class="toolbar">
        <label class="inline">
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} /> Live refresh (every {LIVE_MS / 1000} s)
        </label>
        <button type="button" class="secondary" onClick={pages.state.reload}>Refresh now</button>
        <RefreshStatus state={pages.state} what={(page) => `${page.items.length} events on this page`} />
      </div>
      <AsyncView state={pages.state} label="events">
        {(page) => (
          <>
            <EventsTable items={page.items} caption="Events, newest first" />
            <Pager pageNumber={pages.pageNumber} previous={pages.previous} next={pages.next} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
