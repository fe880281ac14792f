import type { DestinationOverview } from '../../api/types';
import { count, duration, StatusBadge, Time, Value } from '../../components/format';
import { href } from '../../router';

/** GET /destinations: each destination's circuit state, backlog and dead deliveries. */
export function DestinationsTable({ destinations }: { destinations: DestinationOverview[] }) {
  if (destinations.length === 0) return <p class="muted">No destinations configured (DESTINATIONS_FILE is not set; the forward step to FORWARD_URL is tracked on each event itself).</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Destinations and their state</caption>
        <thead>
          <tr>
            <th scope="col">Destination</th>
            <th scope="col">State</th>
            <th scope="col">Backlog</th>
            <th scope="col">Oldest unfinished</th>
            <th scope="col">Dead</th>
            <th scope="col" class="wide">Failures in a row</th>
            <th scope="col" class="wide">Rate limit</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {destinations.map((d) => (
            <tr key={d.name}>
              <th scope="row">{d.name}{!d.enabled && ' (disabled)'}</th>
              <td><StatusBadge status={d.state} />{d.pausedUntil && <> until <Time at={d.pausedUntil} /></>}</td>
              <td class="num">{count(d.backlog)}</td>
              <td>{d.oldestUnfinishedAgeSeconds === null ? <span class="muted">—</span> : duration(d.oldestUnfinishedAgeSeconds)}</td>
              <td class="num">{d.dead > 0 ? <a href={href('/dead', { destination: d.name })}>{count(d.dead)}</a> : count(d.dead)}</td>
              <td class="wide num">{d.consecutiveFailures}</td>
              <td class="wide">{d.rateLimit ? `${d.rateLimit.perSecond}/s, burst ${d.rateLimit.burst}` : 'none'}</td>
              <td><Value value={d.lastError} />{d.lastErrorAt && <> (<Time at={d.lastErrorAt} />)</>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
