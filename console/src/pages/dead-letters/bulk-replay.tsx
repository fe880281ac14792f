import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { BulkReplayQuery } from '../../api/types';
import { count } from '../../components/format';

type Step = { at: 'idle' } | { at: 'counting' } | { at: 'confirm'; matching: number } | { at: 'replaying'; matching: number } | { at: 'done'; replayed: number } | { at: 'error'; message: string };

/**
 * POST /messages/replay for every dead event (or dead delivery to the filters' destination) matching the filters: a dry run first, its count
 * shown, then on confirmation the real call under a fresh Idempotency-Key (a retried click does
 * not replay twice).
 */
export function BulkReplay({ query, noun, onDone }: { query: BulkReplayQuery; noun: { one: string; many: string }; onDone(): void }) {
  const of = (n: number) => `${count(n)} ${n === 1 ? noun.one : noun.many}`;
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
      <h2 id="bulk-heading">Replay all {noun.many} matching the filters</h2>
      <div aria-live="polite" data-testid="bulk-status">
        {step.at === 'counting' && <p>Counting…</p>}
        {step.at === 'confirm' && <p><strong>{of(step.matching)}</strong> {step.matching === 1 ? 'matches' : 'match'} these filters (dry run: nothing was replayed yet).</p>}
        {step.at === 'replaying' && <p>Replaying {of(step.matching)}…</p>}
        {step.at === 'done' && <p>Replayed {of(step.replayed)}.</p>}
      </div>
      {step.at === 'error' && <p role="alert" class="error">Bulk replay failed: {step.message}</p>}
      {step.at === 'confirm' ? (
        <div class="actions">
          <button type="button" class="danger" disabled={step.matching === 0} onClick={() => void confirm(step.matching)}>
            Replay {of(step.matching)}
          </button>
          <button type="button" class="secondary" onClick={() => setStep({ at: 'idle' })}>Cancel</button>
        </div>
      ) : (
        <button type="button" class="secondary" disabled={step.at === 'counting' || step.at === 'replaying'} onClick={() => void dryRun()}>
          Count matching {noun.many} (dry run)…
        </button>
      )}
    </div>
  );
}
