import type { AddressInfo } from 'node:net';

const WILDCARDS = new Set([undefined, '0.0.0.0', '::', '']);

export interface StartLineFacts {
  address: AddressInfo | string | null;
  host: string | undefined;
  sources: readonly string[];
  /** Served (CONSOLE_ENABLED) and built. */
  console: 'served' | 'disabled' | 'not built';
}

/**
 * The last line of a start: where a person goes next. Addresses a browser on this machine can
 * open: localhost when the service listens on every interface.
 */
export function startLine({ address, host, sources, console }: StartLineFacts): string {
  if (address === null || typeof address === 'string') return `ready on ${address ?? 'an unknown address'}`;
  const name = WILDCARDS.has(host) ? 'localhost' : host!.includes(':') ? `[${host}]` : host!;
  const base = `http://${name}:${address.port}`;
  const where = {
    served: `console ${base}/console/`,
    disabled: 'console off (CONSOLE_ENABLED=false)',
    'not built': 'console not built (npm run build)',
  }[console];
  const webhooks = sources.length === 1 ? `${base}/webhook/${sources[0]}` : `${base}/webhook/{${sources.join(',')}}`;
  return `ready: ${where} · API docs ${base}/docs · webhooks ${webhooks}`;
}
