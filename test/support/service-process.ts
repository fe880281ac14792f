import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TEST_SETTINGS } from './test-app.js';

export const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const WORKER_MAIN = fileURLToPath(new URL('../../dist/worker-main.js', import.meta.url));

export interface ServiceProcess {
  /** The HTTP address; empty for a worker-only process. */
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs the built service (`dist/main.js`) or the worker alone (`dist/worker-main.js`,
 * `worker: true`) as a separate OS process; `npm run build` (part of `npm test`) makes them.
 * The worker is off in the service unless `env` turns it on.
 */
export async function startServiceProcess(env: Record<string, string>, options: { worker?: boolean } = {}): Promise<ServiceProcess> {
  const script = options.worker ? WORKER_MAIN : MAIN;
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', WORKER_ENABLED: 'false', ...TEST_SETTINGS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = options.worker ? /worker process ready/ : /listening on port (\d+)/;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not start:\n${output}`)), 20_000);
    const check = () => {
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(Number(match[1] ?? 0));
    };
    child.stdout!.on('data', check);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${output}`));
    });
  });
  return {
    baseUrl: options.worker ? '' : `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
