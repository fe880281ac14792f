import { api, ApiError } from '../../api/client';

export interface ReplayOutcome {
  replayed: string[];
  failed: Array<{ id: string; message: string }>;
}

/** POST /messages/{id}/replay for each selected event (or its delivery to `destination`), one after another. */
export async function replaySelected(ids: string[], destination?: string): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { replayed: [], failed: [] };
  for (const id of ids) {
    try {
      const { response, error } = await api.POST('/messages/{id}/replay', { params: { path: { id }, query: destination === undefined ? {} : { destination } } });
      if (response.ok) outcome.replayed.push(id);
      else outcome.failed.push({ id, message: (error as { message?: string } | undefined)?.message ?? `answered ${response.status}` });
    } catch (error) {
      outcome.failed.push({ id, message: error instanceof ApiError || error instanceof Error ? error.message : String(error) });
    }
  }
  return outcome;
}
