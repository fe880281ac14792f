import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { PROVIDERS, type Delivery } from '../../api/types';
import { AsyncView } from '../../components/async-view';
import { FieldList, type Field } from '../../components/field-list';
import { StatusBadge, Time, Value } from '../../components/format';
import { useAsync } from '../../components/use-async';
import { href, navigate } from '../../router';

function Record({ delivery }: { delivery: Delivery }) {
  const rows: Field[] = [
    ['Outbound message', <code>{delivery.wamid}</code>],
    ['Source', delivery.provider],
    ['Recipient', <Value value={delivery.recipient} />],
    ['Furthest status', <StatusBadge status={delivery.status} />],
    ['Error', <Value value={delivery.error} />],
    ['Sent', <Time at={delivery.sentAt} />],
    ['Delivered', <Time at={delivery.deliveredAt} />],
    ['Read', <Time at={delivery.readAt} />],
    ['Played', <Time at={delivery.playedAt} />],
    ['Failed', <Time at={delivery.failedAt} />],
    ['First reported', <Time at={delivery.createdAt} />],
    ['Last changed', <Time at={delivery.updatedAt} />],
  ];
  return <FieldList fields={rows} class="fields card" label="Delivery record" />;
}

function Lookup({ wamid, provider }: { wamid: string; provider: string | undefined }) {
  const chosen = PROVIDERS.find((p) => p === provider);
  const state = useAsync(
    (signal) => unwrap(api.GET('/deliveries/{wamid}', { params: { path: { wamid }, query: { provider: chosen } }, signal })),
    [wamid, chosen],
  );
  return <AsyncView state={state} label="the delivery record">{(delivery) => <Record delivery={delivery} />}</AsyncView>;
}

/** GET /deliveries/{wamid}?provider=: how far an outbound message got, as its source reported it. */
export function DeliveriesPage({ params }: { params: URLSearchParams }) {
  const wamid = params.get('wamid') ?? '';
  const provider = params.get('provider') ?? '';
  const [draft, setDraft] = useState({ wamid, provider });
  useEffect(() => setDraft({ wamid, provider }), [wamid, provider]);
  const submit = (event: Event) => {
    event.preventDefault();
    navigate(href('/deliveries', { wamid: draft.wamid.trim(), provider: draft.provider }));
  };
  return (
    <section aria-labelledby="page-heading">
      <h1 id="page-heading">Deliveries</h1>
      <form class="filters card" onSubmit={submit} aria-label="Look up a delivery record">
        <div class="field grow">
          <label for="wamid">Outbound message id (wamid)</label>
          <input id="wamid" required value={draft.wamid} onInput={(e) => setDraft({ ...draft, wamid: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="delivery-provider">Source</label>
          <select id="delivery-provider" value={draft.provider} onChange={(e) => setDraft({ ...draft, provider: e.currentTarget.value })}>
            <option value="">any (only one reported it)</option>
            {PROVIDERS.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </div>
        <div class="actions">
          <button type="submit">Look up</button>
        </div>
      </form>
      {wamid ? <Lookup key={`${wamid}|${provider}`} wamid={wamid} provider={provider || undefined} /> : <p class="muted">Enter the id of a message you sent to see how far it got.</p>}
    </section>
  );
}
