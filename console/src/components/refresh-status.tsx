import type { AsyncState } from './use-async';

const clock = (d: Date) => d.toLocaleTimeString('en-GB');

/** "Updated 12:00:05 · 50 events", announced politely to screen readers on each refresh. */
export function RefreshStatus<T>({ state, what }: { state: AsyncState<T>; what(data: T): string }) {
  return (
    <p class="muted refresh" aria-live="polite" data-testid="refresh-status">
      {state.loading ? 'Refreshing…' : state.updatedAt && state.data !== undefined ? `Updated ${clock(state.updatedAt)} · ${what(state.data)}` : ''}
    </p>
  );
}
