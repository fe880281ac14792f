import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { uniqueId } from './support/payloads.js';
import { MAIN, startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { postWebhook } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * The built service in the environment it runs in: the address it binds to (HOST), for the
 * HTTP service and the standalone worker's metrics, and a server time zone other than UTC.
 */
let db: TestDatabase;
const running: ServiceProcess[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});
afterAll(async () => {
  await db?.drop();
});

async function start(env: Record<string, string>, options: { worker?: boolean } = {}): Promise<ServiceProcess> {
  const service = await startServiceProcess({ DATABASE_URL: db.url, ...env }, options);
  running.push(service);
  return service;
}

/**
 * An address of this machine that is not 127.0.0.1: a server bound to 127.0.0.1 must refuse
 * connections there, one bound to every interface must accept them.
 */
const ELSEWHERE = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a !== undefined)
  .sort((a, b) => Number(a.internal) - Number(b.internal)) // a real interface first, ::1 otherwise
  .find((a) => a.address !== '127.0.0.1' && !a.address.startsWith('fe80'))?.address;
const itElsewhere = ELSEWHERE === undefined ? it.skip : it;
if (ELSEWHERE === undefined) console.info('No address besides 127.0.0.1 on this machine: the tests that connect elsewhere are skipped.');

/** Whether something accepts a TCP connection at host:port (false when refused). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolve(false) : reject(error)));
  });
}

const portOf = (service: ServiceProcess, pattern: RegExp) => Number(pattern.exec(service.output())?.[1]);

describe('HOST', () => {
  itElsewhere('127.0.0.1: the service answers there, nowhere else, and its log says where it listens', async () => {
    const service = await start({ HOST: '127.0.0.1' });
    const port = portOf(service, /listening on port (\d+) on 127\.0\.0\.1"/);
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    expect(await accepts(ELSEWHERE!, port)).toBe(false);
  });

  itElsewhere('unset: the service listens on every interface, as before, and says so', async () => {
    const service = await start({});
    const port = portOf(service, /listening on port (\d+) on every interface"/);
    expect(port).toBeGreaterThan(0);
    expect(await accepts('127.0.0.1', port)).toBe(true);
    expect(await accepts(ELSEWHERE!, port)).toBe(true);
  });

  itElsewhere('binds the standalone worker’s metrics server too', async () => {
    const worker = await start({ HOST: '127.0.0.1', WORKER_METRICS_PORT: '0' }, { worker: true });
    const port = portOf(worker, /metrics on port (\d+) on 127\.0\.0\.1"/);
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    expect(await accepts(ELSEWHERE!, port)).toBe(false);
  });

  it.each([
    ['127.0.0.1:3000', 'HOST must be an IP address (e.g. 127.0.0.1, ::1, 0.0.0.0) or a host name, without a port'],
    // An address (TEST-NET-2, for documentation), but none of this machine's: EADDRNOTAVAIL.
    ['198.51.100.250', 'cannot listen on port 0 of 198.51.100.250'],
  ])('HOST=%s: the service does not start, and says why', async (host, message) => {
    // Not spawnSync: the embedded test database runs in this process and must keep answering.
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATABASE_URL: db.url, PORT: '0', HOST: host, LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', RETENTION_ENABLED: 'false' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a server whose time zone is not UTC (TZ=Asia/Tokyo)', () => {
  it('reads a source’s time without a zone as UTC, and refuses a since without an offset', async () => {
    const service = await start({ TZ: 'Asia/Tokyo' });
    const id = uniqueId('tz');
    const answer = await postWebhook(service.baseUrl, { event: 'message', id, from: '4915100000003', type: 'text', timestamp: '2026-11-29T10:00:00' });
    expect(answer.status).toBe(200);
    const [row] = await db.query('SELECT provider_timestamp FROM messages WHERE message_id = $1', [`generic:msg:${id}`]);
    expect(row.provider_timestamp).toEqual(new Date('2026-11-29T10:00:00Z')); // 01:00Z if read in Tokyo time

    const since = await fetch(`${service.baseUrl}/messages?since=2026-11-29T10:00:00`);
    expect(since.status).toBe(400);
    expect(((await since.json()) as { message: string[] }).message.join()).toContain('since must be an ISO 8601 (RFC 3339) date-time');
    const listed = (await (await fetch(`${service.baseUrl}/messages?from=4915100000003&since=${encodeURIComponent('2026-11-29T19:00:00+09:00')}`)).json()) as {
      items: { id: string; timestamp: string }[];
    };
    expect(listed.items.map((item) => [item.id, item.timestamp])).toEqual([[`generic:msg:${id}`, '2026-11-29T10:00:00.000Z']]);
  });
});
