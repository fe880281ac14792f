import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { BulkReplayQuery } from '../../api/types';
import { count } from '../../components/format';

type Step = { at: 'idle' } | { at: 'counting' } | { at: 'confirm'; matching: number } | { at: 'replaying'; matching: number } | { at: 'done'; replayed: number } | { at: 'error'; message: string };

/**
 * POST /messages/replay for every dead event matching the filters: a dry run first, its count
 * shown, then on confirmation the real call under a fresh Idempotency-Key (a retried click does
 * not replay twice).
 */
export function BulkReplay({ query, onDone }: { query: BulkReplayQuery; onDone(): void }) {
  const [step, setStep] = useState<Step>({ at: 'idle' });
  const dryRun = async () => {
    setStep({ at: 'counting' });
    try {
      const result = await unwrap(api.POST('/messages/replay', { params: { query: { ...query, dryRun: true } } }));
      setStep({ at: 'confirm', matching: result.replayed });
    } catch (error) {
      setStep({ at: 'error', message: (error as Error).message });
    }
  };
  const confirm = async (matching: number) => {
    setStep({ at: 'replaying', matching });
    try {
      const headers = { 'Idempotency-Key': crypto.randomUUID() };
      const result = await unwrap(api.POST('/messages/replay', { params: { query: { ...query, dryRun: false }, header: headers } }));
      setStep({ at: 'done', replayed: result.replayed });
      onDone();
    } catch (error) {
      setStep({ at: 'error', message: (error as Error).message });
    }
  };
  return (
    <div class="card bulk" aria-labelledby="bulk-heading">
      <h2 id="bulk-heading">Replay every dead event matching the filters</h2>
      <div aria-live="polite" data-testid="bulk-status">
        {step.at === 'counting' && <p>Counting…</p>}
        {step.at === 'confirm' && <p><strong>{count(step.matching)}</strong> dead events match these filters (dry run: nothing was replayed yet).</p>}
        {step.at === 'replaying' && <p>Replaying {count(step.matching)} events…</p>}
        {step.at === 'done' && <p>Replayed {count(step.replayed)} events.</p>}
      </div>
      {step.at === 'error' && <p role="alert" class="error">Bulk replay failed: {step.message}</p>}
      {step.at === 'confirm' ? (
        <div class="actions">
          <button type="button" class="danger" disabled={step.matching === 0} onClick={() => void confirm(step.matching)}>
            Replay {count(step.matching)} events
          </button>
          <button type="button" class="secondary" onClick={() => setStep({ at: 'idle' })}>Cancel</button>
        </div>
      ) : (
        <button type="button" class="secondary" disabled={step.at === 'counting' || step.at === 'replaying'} onClick={() => void dryRun()}>
          Count matching events (dry run)…
        </button>
      )}
    </div>
  );
}
