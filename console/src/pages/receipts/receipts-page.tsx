import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import { SOURCE_NAMES, type Receipt } from '../../api/types';
import { AsyncView } from '../../components/async-view';
import { FieldList, type Field } from '../../components/field-list';
import { StatusBadge, Time, Value } from '../../components/format';
import { useAsync } from '../../components/use-async';
import { href, navigate } from '../../router';

function ReceiptFields({ receipt }: { receipt: Receipt }) {
  const rows: Field[] = [
    ['Outbound message', <code>{receipt.wamid}</code>],
    ['Source', receipt.provider],
    ['Recipient', <Value value={receipt.recipient} />],
    ['Furthest status', <StatusBadge status={receipt.status} />],
    ['Error', <Value value={receipt.error} />],
    ['Sent', <Time at={receipt.sentAt} />],
    ['Delivered', <Time at={receipt.deliveredAt} />],
    ['Read', <Time at={receipt.readAt} />],
    ['Played', <Time at={receipt.playedAt} />],
    ['Failed', <Time at={receipt.failedAt} />],
    ['First reported', <Time at={receipt.createdAt} />],
    ['Last changed', <Time at={receipt.updatedAt} />],
  ];
  return <FieldList fields={rows} class="fields card" label="Receipt" />;
}

function Lookup({ wamid, source }: { wamid: string; source: string | undefined }) {
  const chosen = SOURCE_NAMES.find((p) => p === source);
  const state = useAsync(
    (signal) => unwrap(api.GET('/deliveries/{wamid}', { params: { path: { wamid }, query: { provider: chosen } }, signal })),
    [wamid, chosen],
  );
  return <AsyncView state={state} label="the receipt">{(receipt) => <ReceiptFields receipt={receipt} />}</AsyncView>;
}

/**
 * GET /deliveries/{wamid}?provider=: an outbound message's receipt, how far it got as its source
 * reported it. The URL keeps the API's `provider` parameter name, so links stay shareable.
 */
export function ReceiptsPage({ params }: { params: URLSearchParams }) {
  const wamid = params.get('wamid') ?? '';
  const source = params.get('provider') ?? '';
  const [draft, setDraft] = useState({ wamid, source });
  useEffect(() => setDraft({ wamid, source }), [wamid, source]);
  const submit = (event: Event) => {
    event.preventDefault();
    navigate(href('/receipts', { wamid: draft.wamid.trim(), provider: draft.source }));
  };
  return (
    <section aria-labelledby="page-heading">
      <h1 id="page-heading">Receipts</h1>
      <form class="filters card" onSubmit={submit} aria-label="Look up a receipt">
        <div class="field grow">
          <label for="wamid">Outbound message id (wamid)</label>
          <input id="wamid" required value={draft.wamid} onInput={(e) => setDraft({ ...draft, wamid: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="receipt-source">Source</label>
          <select id="receipt-source" value={draft.source} onChange={(e) => setDraft({ ...draft, source: e.currentTarget.value })}>
            <option value="">any (only one reported it)</option>
            {SOURCE_NAMES.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </div>
        <div class="actions">
          <button type="submit">Look up</button>
        </div>
      </form>
      {wamid ? <Lookup key={`${wamid}|${source}`} wamid={wamid} source={source || undefined} /> : <p class="muted">Enter the id of a message you sent to see its receipt: how far it got.</p>}
    </section>
  );
}
