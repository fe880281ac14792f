import type { Server } from 'node:http';
import type { HttpSettings } from './http.settings.js';

/** Longer than the usual load balancers' idle timeout (60 s), so they never reuse a connection the service has closed. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export type ServerTimeouts = Pick<HttpSettings, 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_HEADERS_TIMEOUT_MS'>;

/**
 * What a slow client may hold: Node cuts a request whose headers take longer than
 * HTTP_HEADERS_TIMEOUT_MS, or whose whole upload takes longer than HTTP_REQUEST_TIMEOUT_MS (408,
 * connection closed), so a stalled 3 MB upload no longer holds its buffer for Node's default
 * 300 s. Node checks both every `connectionsCheckingInterval` (30 s by default, read when the
 * server starts listening), which would let a stalled upload live up to 30 s past its timeout:
 * checked every tenth of the headers timeout (at most 1 s), a request is cut close to its
 * timeout. Set on the server before it listens, by createApp, so tests run with it too.
 */
export function applyServerTimeouts(server: Server, config: ServerTimeouts): void {
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  server.headersTimeout = config.HTTP_HEADERS_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  Object.assign(server, { connectionsCheckingInterval: Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 10)) });
}
