import type { AddressInfo } from 'node:net';

/**
 * Where a server listens, for the start log: `port 3000 on 127.0.0.1`, `port 3000 on localhost
 * (::1)`, or `port 3000 on every interface`. Always `port <n>` first: scripts and tests read it.
 */
export function listeningOn(address: AddressInfo | string | null, host: string | undefined): string {
  if (address === null || typeof address === 'string') return `${address ?? 'an unknown address'}`;
  const where = host === undefined ? 'every interface' : host === address.address ? host : `${host} (${address.address})`;
  return `port ${address.port} on ${where}`;
}
