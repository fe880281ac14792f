import { api, unwrap } from '../../api/client';
import { AsyncView } from '../../components/async-view';
import { RefreshStatus } from '../../components/refresh-status';
import { useAsync } from '../../components/use-async';
import { DestinationsTable } from './destinations-table';

export function useDestinations(refreshMs?: number) {
  return useAsync((signal) => unwrap(api.GET('/destinations', { signal })), [], refreshMs);
}

export function DestinationsPage() {
  const state = useDestinations(10_000);
  return (
    <section aria-labelledby="page-heading">
      <h1 id="page-heading">Destinations</h1>
      <RefreshStatus state={state} what={(d) => `${d.length} destinations`} />
      <AsyncView state={state} label="destinations">{(destinations) => <DestinationsTable destinations={destinations} />}</AsyncView>
    </section>
  );
}
