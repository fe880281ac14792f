import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { MessageDetail } from '../../api/types';
import { AsyncView } from '../../components/async-view';
import { JsonViewer } from '../../components/json-viewer';
import { useAsync } from '../../components/use-async';
import { DestinationDeliveries } from './destination-deliveries';
import { EventFields } from './event-fields';
import { TimelineView } from './timeline-view';

const IN_PROGRESS = new Set(['received', 'processing']);

/** One event: timeline, fields, deliveries, payload; replay when the API allows it. */
export function EventDetailPage({ id }: { id: string }) {
  const [polling, setPolling] = useState(false);
  const state = useAsync(
    (signal) => unwrap(api.GET('/messages/{id}', { params: { path: { id } }, signal })),
    [id],
    polling ? 1000 : undefined,
  );
  const working = state.data !== undefined && (IN_PROGRESS.has(state.data.status) || state.data.destinations.some((d) => IN_PROGRESS.has(d.status) || d.status === 'failed'));
  useEffect(() => setPolling(working), [working]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean }>();

  const replay = async (query: { from?: 'start'; destination?: string }, what: string) => {
    setBusy(true);
    try {
      const accepted = await unwrap(api.POST('/messages/{id}/replay', { params: { path: { id }, query } }));
      setMessage({ text: `${what}: queued again${accepted.replay > 0 ? ` as replay ${accepted.replay}, under a new key` : ''}.`, error: false });
    } catch (error) {
      setMessage({ text: `${what} refused: ${(error as Error).message}`, error: true });
    }
    setBusy(false);
    state.reload();
  };

  return (
    <section aria-labelledby="page-heading">
      <p><a href="#/events">← Events</a></p>
      <h1 id="page-heading" class="id">Event {id}</h1>
      <div aria-live="polite" data-testid="detail-message">{message && !message.error && <p class="ok">{message.text}</p>}</div>
      {message?.error && <p role="alert" class="error">{message.text}</p>}
      <AsyncView state={state} label="the event">
        {(event: MessageDetail) => (
          <>
            <div class="actions">
              {(event.status === 'dead' || event.status === 'failed') && (
                <button type="button" disabled={busy} onClick={() => void replay({}, 'Replay')}>Replay event</button>
              )}
              {event.status === 'processed' && (
                <button type="button" class="secondary" disabled={busy} onClick={() => confirm('Replay from the start? Every step runs again under a new key.') && void replay({ from: 'start' }, 'Replay from the start')}>
                  Replay from the start…
                </button>
              )}
              {working && <span class="muted" role="status">In progress: refreshing every second…</span>}
            </div>
            <div class="detail-grid">
              <div class="card">
                <h2>Timeline</h2>
                <TimelineView entries={event.timeline} />
              </div>
              <div class="card">
                <h2>Fields</h2>
                <EventFields event={event} />
              </div>
            </div>
            <div class="card">
              <h2>Destinations</h2>
              <DestinationDeliveries deliveries={event.destinations} busy={busy} onReplay={(destination) => void replay({ destination }, `Replay to ${destination}`)} />
            </div>
            <div class="card">
              <h2>Payload</h2>
              <JsonViewer value={event.payload} label="Payload as stored" />
            </div>
          </>
        )}
      </AsyncView>
    </section>
  );
}
