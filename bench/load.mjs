// Load engine: a closed loop of `connections` autocannon clients that all pull their next
// body from one shared sequence, so every request carries its own body. Stops pulling
// when the sequence is exhausted or `duration` has passed, then lets in-flight requests
// finish (a "graceful drain"), so every id that was sent has its answer counted.
import autocannon from 'autocannon';
import { createHmac } from 'node:crypto';

export class TargetDownError extends Error {}

/** Meta-style signature header, only when a secret is given (the references ignore it). */
export const signer = (secret) => (secret ? (body) => ({ 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }) : () => ({}));

/**
 * Checks the target answers POST <path> before loading it; a body without an id must be
 * refused (400), which neither stores anything nor depends on the target's kind.
 * Returns { json } : whether the target answers JSON (ours) or text (the references).
 */
export async function probe(url, path, sign) {
  const endpoint = new URL(path, url);
  let res;
  try {
    res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', ...sign('{}') }, body: '{}', signal: AbortSignal.timeout(5000) });
  } catch (err) {
    const why = err.cause?.code ?? err.cause?.message ?? err.name;
    throw new TargetDownError(`target ${url} is not reachable (${why}): start it first (see bench/README.md)`);
  }
  const text = (await res.text()).slice(0, 200);
  if (res.status === 404 || res.status === 405) throw new TargetDownError(`target ${url} has no POST ${path} (HTTP ${res.status}: ${text})`);
  if (res.status === 401 || res.status === 403) {
    throw new TargetDownError(`target ${url} refused an unsigned probe (HTTP ${res.status}): pass --secret <app secret> (or set WHATSAPP_APP_SECRET)`);
  }
  if (res.status >= 500) console.error(`  ! probe of ${url} answered HTTP ${res.status}: ${text}`);
  return { json: (res.headers.get('content-type') ?? '').includes('json'), status: res.status };
}

/** Accepted/duplicate counts of one answer: text for the references, JSON counts for ours. */
export function classify(status, body) {
  if (status !== 200) return null;
  const s = body.trim();
  if (s === 'Accepted') return { accepted: 1, duplicates: 0 };
  if (s === 'Duplicate suppressed') return { accepted: 0, duplicates: 1 };
  if (s[0] !== '{') return null;
  try {
    const j = JSON.parse(s);
    if (Number.isInteger(j.accepted) && Number.isInteger(j.duplicates)) return { accepted: j.accepted, duplicates: j.duplicates };
    if (Array.isArray(j.events)) {
      const n = (r) => j.events.filter((e) => e?.result === r).length;
      return { accepted: n('accepted'), duplicates: n('duplicate') };
    }
  } catch { /* not JSON: unclassified */ }
  return null;
}

/**
 * Runs one phase. `src` is a sequence from workloads.mjs; duration in seconds (Infinity:
 * until exhausted). Returns a tally: sent/answered counts, status codes, per-answer
 * classification, latencies (ms) and per-id accept counts.
 */
export async function runPhase({ url, path, src, connections, duration, timeout, sign, bailout = 1000 }) {
  const t = {
    sent: 0, sentEvents: 0, bodyBytes: 0, answered: 0, okEvents: 0, accepted: 0, duplicates: 0,
    unclassified: 0, partial: 0, doubleAccepted: 0, distinct: 0, statusCodes: {}, latencies: [],
    samples: [], errors: 0, timeouts: 0, startedAt: 0, elapsed: 0, truncated: false,
  };
  const seen = new Map(); // id -> accepts so far (single-id items)
  const clients = [];
  let stopped = false;
  const stopAll = (current) => {
    stopped = true;
    for (const c of clients) if (c !== current) c.responseMax = Math.max(1, c.reqsMade);
  };

  function setupClient(client) {
    clients.push(client);
    let item = null;
    client.setRequests([{
      method: 'POST', path, headers: { 'content-type': 'application/json' },
      setupRequest(req) {
        item = src.next();
        if (src.exhausted && !stopped) { stopAll(client); client.responseMax = client.reqsMade + 1; }
        t.sent++; t.sentEvents += item.events; t.bodyBytes += item.body.length;
        if (item.id === undefined) t.distinct += item.events;
        else if (!seen.has(item.id)) { seen.set(item.id, 0); t.distinct++; }
        req.body = item.body;
        Object.assign(req.headers, sign(item.body));
        return req;
      },
      onResponse(status, body) {
        t.answered++;
        if (status === 200) t.okEvents += item.events;
        t.statusCodes[status] = (t.statusCodes[status] ?? 0) + 1;
        const c = classify(status, body);
        if (!c) { t.unclassified++; if (t.samples.length < 3) t.samples.push(`HTTP ${status}: ${String(body).slice(0, 160)}`); return; }
        t.accepted += c.accepted; t.duplicates += c.duplicates;
        if (c.accepted + c.duplicates !== item.events) t.partial++;
        if (item.id !== undefined && c.accepted > 0) {
          const n = seen.get(item.id) + c.accepted;
          seen.set(item.id, n);
          if (n === 2) t.doubleAccepted++;
        }
      },
    }]);
    client.on('response', (_status, _bytes, ms) => { t.latencies.push(ms); t.lastAt = performance.now(); });
  }

  const n = Number.isFinite(src.total) ? Math.min(connections, src.total) : connections;
  const hard = Number.isFinite(duration) ? duration + Math.max(30, 3 * timeout) : 3600;
  t.startedAt = performance.now();
  const timer = Number.isFinite(duration) ? setTimeout(() => { t.truncated = !src.exhausted; stopAll(null); }, duration * 1000) : null;
  const result = await autocannon({ url, connections: n, duration: hard, timeout, bailout, setupClient });
  clearTimeout(timer);
  t.elapsed = ((t.lastAt ?? performance.now()) - t.startedAt) / 1000;
  t.errors = result.errors; t.timeouts = result.timeouts;
  t.connections = n;
  if (!stopped) t.aborted = true; // autocannon's own stop (bailout/hard cap): unanswered requests likely
  return t;
}
