import { createServer, type Server } from 'node:http';
import type { MetricsService } from './metrics.service.js';

/**
 * The standalone worker has no HTTP application; with WORKER_METRICS_PORT set it serves its
 * metrics (GET /metrics) on this bare server so Prometheus can scrape every worker process.
 * It binds to HOST like the HTTP service does (every interface when unset).
 */
export function serveWorkerMetrics(metrics: MetricsService, port: number, host?: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    metrics.scrape().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => resolve(server)); // host undefined: every interface
  });
}
