/**
 * The operator's INSPECTION_API_KEY, kept for this browser session only (sessionStorage).
 * The API decides whether a key is needed: a 401 clears the key and asks for one.
 */
export type Prompt = null | 'needed' | 'wrong';

const STORAGE_KEY = 'wdd.inspectionApiKey';
const listeners = new Set<() => void>();
let prompt: Prompt = null;

function read(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

export const authStore = {
  key: read,
  prompt: (): Prompt => prompt,
  /** The operator typed a key: use it from now on. */
  submit(key: string): void {
    sessionStorage.setItem(STORAGE_KEY, key);
    prompt = null;
    notify();
  },
  /** The API answered 401: the key sent (if any) is not accepted. */
  rejected(): void {
    const sent = read();
    sessionStorage.removeItem(STORAGE_KEY);
    if (prompt === 'wrong' && sent === null) return;
    prompt = sent === null ? 'needed' : 'wrong';
    notify();
  },
  forget(): void {
    sessionStorage.removeItem(STORAGE_KEY);
    prompt = 'needed';
    notify();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
