import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { SOURCE_NAMES, RANGES, type ActivityRange } from '../../api/types';
import { AsyncView } from '../../components/async-view';
import { RefreshStatus } from '../../components/refresh-status';
import { useAsync } from '../../components/use-async';
import { href, navigate } from '../../router';
import { ActivityChart } from './activity-chart';
import { BacklogPanel } from './backlog-panel';
import { BreakdownTable } from './breakdown-table';
import { useDestinations } from './destinations-page';
import { DestinationsTable } from './destinations-table';

const RANGE_LABELS: Record<ActivityRange, string> = { hour: 'Last hour', day: 'Last day', week: 'Last week' };
const REFRESH_MS = 15_000;

/** Events over time (GET /messages/activity), backlog (GET /messages/stats) and destinations. */
export function OverviewPage({ params }: { params: URLSearchParams }) {
  const range = RANGES.find((r) => r === params.get('range')) ?? 'hour';
  const provider = SOURCE_NAMES.find((p) => p === params.get('provider'));
  const tenant = params.get('tenant') || undefined;
  const [tenantDraft, setTenantDraft] = useState(tenant ?? '');
  useEffect(() => setTenantDraft(tenant ?? ''), [tenant]);
  const go = (next: { range?: string; provider?: string; tenant?: string }) =>
    navigate(href('/overview', { range, provider, tenant, ...next }));

  const activity = useAsync(
    (signal) => unwrap(api.GET('/messages/activity', { params: { query: { range, provider, tenant } }, signal })),
    [range, provider, tenant],
    REFRESH_MS,
  );
  const stats = useAsync((signal) => unwrap(api.GET('/messages/stats', { params: { query: { tenant } }, signal })), [tenant], REFRESH_MS);
  const destinations = useDestinations(REFRESH_MS);

  return (
    <section aria-labelledby="page-heading">
      <h1 id="page-heading">Overview</h1>
      <form class="filters card" aria-label="Overview filters" onSubmit={(e) => { e.preventDefault(); go({ tenant: tenantDraft.trim() }); }}>
        <fieldset class="segmented">
          <legend>Range</legend>
          {RANGES.map((r) => (
            <label key={r}>
              <input type="radio" name="range" value={r} checked={r === range} onChange={() => go({ range: r })} /> {RANGE_LABELS[r]}
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="overview-provider">Source</label>
          <select id="overview-provider" value={provider ?? ''} onChange={(e) => go({ provider: e.currentTarget.value })}>
            <option value="">every source</option>
            {SOURCE_NAMES.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="overview-tenant">Tenant</label>
          <input id="overview-tenant" value={tenantDraft} onInput={(e) => setTenantDraft(e.currentTarget.value)} />
        </div>
        <div class="actions">
          <button type="submit">Apply</button>
          {(provider || tenant) && <button type="button" class="secondary" onClick={() => navigate(href('/overview', { range }))}>Clear filters</button>}
        </div>
      </form>
      <RefreshStatus state={activity} what={(a) => `${a.totals.accepted} accepted in range`} />
      <div class="card">
        <h2>Events over time</h2>
        <AsyncView state={activity} label="activity">{(a) => <ActivityChart activity={a} />}</AsyncView>
      </div>
      <div class="card">
        <h2>Backlog</h2>
        <AsyncView state={stats} label="stats">{(s) => <BacklogPanel stats={s} />}</AsyncView>
      </div>
      <AsyncView state={activity} label="breakdowns">
        {(a) => (
          <div class="detail-grid">
            <div class="card">
              <BreakdownTable title="By source" rows={a.bySource} nameOf={(row) => ('provider' in row ? row.provider : null)} onPick={(name) => go({ provider: name })} />
            </div>
            <div class="card">
              <BreakdownTable title="By tenant (top 20)" rows={a.byTenant} nameOf={(row) => ('tenant' in row ? row.tenant : null)} onPick={(name) => go({ tenant: name })} />
            </div>
          </div>
        )}
      </AsyncView>
      <div class="card">
        <h2>Destinations</h2>
        <AsyncView state={destinations} label="destinations">{(d) => <DestinationsTable destinations={d} />}</AsyncView>
      </div>
    </section>
  );
}
