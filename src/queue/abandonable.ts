/**
 * A step's promise raced against its attempt's signal. The attempt stops waiting the moment the
 * signal fires, whether or not the step honours it; `settled` says whether the step itself has
 * finished, and `finished` resolves when it does (a step that ignored the signal runs on, and
 * its late result or error is dropped).
 */
export interface Abandonable<T> {
  result: Promise<T>;
  settled(): boolean;
  finished: Promise<void>;
}

export function raceWithSignal<T>(work: Promise<T>, signal: AbortSignal): Abandonable<T> {
  let done = false;
  const finished = work.then(
    () => void (done = true),
    () => void (done = true),
  );
  const result = new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
  return { result, settled: () => done, finished };
}
