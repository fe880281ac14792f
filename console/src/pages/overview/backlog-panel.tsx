import type { MessageStats } from '../../api/types';
import { count, duration, Time } from '../../components/format';

/** GET /messages/stats: what is still to do, and the oldest event waiting. */
export function BacklogPanel({ stats }: { stats: MessageStats }) {
  const { received = 0, processing = 0, failed = 0 } = stats.byStatus;
  const backlog = received + processing + failed;
  return (
    <dl class="tiles">
      <div><dt>Backlog (not processed yet)</dt><dd>{count(backlog)}</dd></div>
      <div>
        <dt>Oldest unprocessed</dt>
        <dd>
          {stats.oldestUnprocessedAgeSeconds === null ? 'none' : duration(stats.oldestUnprocessedAgeSeconds)}
          {stats.oldestUnprocessedReceivedAt && <small> (received <Time at={stats.oldestUnprocessedReceivedAt} />)</small>}
        </dd>
      </div>
      <div><dt>Dead</dt><dd><a href="#/dead">{count(stats.dead)}</a></dd></div>
      <div><dt>Failed, retrying</dt><dd>{count(failed)}</dd></div>
      <div><dt>Stored events</dt><dd>{count(stats.total)}</dd></div>
      <div><dt>Duplicates suppressed</dt><dd>{count(stats.duplicatesSuppressed)}</dd></div>
    </dl>
  );
}
