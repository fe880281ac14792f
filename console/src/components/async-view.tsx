import type { ComponentChildren } from 'preact';
import type { AsyncState } from './use-async';

/** Loading and error states around a result; the error is announced (role="alert"). */
export function AsyncView<T>({ state, label, children }: { state: AsyncState<T>; label: string; children: (data: T) => ComponentChildren }) {
  if (state.error) {
    return (
      <div role="alert" class="error">
        Could not load {label}: {state.error.message}{' '}
        <button type="button" onClick={state.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (state.data === undefined) {
    return (
      <p class="muted" role="status">
        Loading {label}…
      </p>
    );
  }
  return <>{children(state.data)}</>;
}
