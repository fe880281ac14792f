import { api, unwrap } from '../../api/client';
import { useAsync } from '../../components/use-async';

/** The names of the configured destinations (GET /destinations), for the destination filter; none until they arrive. */
export function useDestinationNames(): string[] {
  const state = useAsync((signal) => unwrap(api.GET('/destinations', { signal })), []);
  return state.data?.map((d) => d.name) ?? [];
}
