import type { DestinationDelivery } from '../../api/types';
import { StatusBadge, Time, Value } from '../../components/format';

const REPLAYABLE = new Set(['dead', 'failed']);

/** The event's deliveries to destinations; a dead or failed one can be sent again. */
export function DestinationDeliveries({ deliveries, onReplay, busy }: { deliveries: DestinationDelivery[]; onReplay(destination: string): void; busy: boolean }) {
  if (deliveries.length === 0) return <p class="muted">No destination deliveries (no DESTINATIONS_FILE, or no destination matched).</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Deliveries to destinations</caption>
        <thead>
          <tr>
            <th scope="col">Destination</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last error</th>
            <th scope="col">Next attempt</th>
            <th scope="col">Completed</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={`${d.destination}:${d.replay}`}>
              <th scope="row">{d.destination}{d.replay > 0 && ` (replay ${d.replay})`}</th>
              <td><StatusBadge status={d.status} />{d.brokeOrder && <span class="muted"> (the conversation went on without it)</span>}</td>
              <td class="num">{d.attempts}</td>
              <td><Value value={d.lastError} /></td>
              <td><Time at={d.nextAttemptAt} /></td>
              <td><Time at={d.completedAt} /></td>
              <td>
                {REPLAYABLE.has(d.status) && (
                  <button type="button" class="secondary" disabled={busy} onClick={() => onReplay(d.destination)}>
                    Replay delivery to {d.destination}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
