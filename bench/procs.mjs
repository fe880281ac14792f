// Processes and databases for bench/processing.mjs: a scratch database per run, the service and
// worker processes (started from dist/, stopped with SIGTERM, exit code checked), the downstream
// child, and per-process CPU accounting from /proc.
import { spawn, fork } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ROOT = new URL('..', import.meta.url).pathname;

// Everything started or created here and not yet stopped or dropped, so that a script's Ctrl-C
// handler can clean up what its modules started (see stopEverything).
const live = { nodes: new Set(), downstreams: new Set(), databases: new Map() }; // databases: name -> admin URL

/** Creates database wdd_bench_<random> next to the one `adminUrl` names; returns its URL. */
export async function createDatabase(adminUrl) {
  const name = `wdd_bench_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  live.databases.set(name, adminUrl);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { name, url: u.toString() };
}

export async function dropDatabase(adminUrl, name) {
  await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  live.databases.delete(name);
}

export async function withClient(url, fn) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return await fn(c); } finally { await c.end(); }
}

/**
 * Starts `node dist/<script>` and resolves when a log line matches `ready` (the services log
 * their ready line at info; requests log at debug, so info is as quiet as warn under load).
 * Keeps the last log lines for error messages.
 */
export function startNode(script, env, ready, label) {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof, for diagnosis
  const child = spawn(process.execPath, [...nodeArgs, `dist/${script}`], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const p = { child, label, pid: child.pid, tail: [], exit: null, match: null };
  live.nodes.add(p);
  p.exited = new Promise((resolve) => child.on('exit', (code, signal) => { p.exit = { code, signal }; live.nodes.delete(p); resolve(p.exit); }));
  p.ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} not ready after 60 s:\n${p.tail.join('\n')}`)), 60_000);
    const onLine = (line) => {
      p.tail = [...p.tail.slice(-19), line.slice(0, 400)];
      const m = !p.match && line.match(ready);
      if (m) { p.match = m; clearTimeout(timer); resolve(p); }
    };
    for (const s of [child.stdout, child.stderr]) {
      let buf = '';
      s.on('data', (d) => { buf += d; const lines = buf.split('\n'); buf = lines.pop(); lines.forEach(onLine); });
    }
    p.exited.then((e) => { clearTimeout(timer); reject(new Error(`${label} exited (${JSON.stringify(e)}) before it was ready:\n${p.tail.join('\n')}`)); });
  });
  p.ready.catch(() => {});
  return p;
}

/** The first file under src/ or prisma/ newer than dist/main.js (dist/ is stale), else null. */
export function staleDist() {
  const built = statSync(`${ROOT}dist/main.js`, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return 'dist/main.js is missing; src/';
  for (const dir of ['src', 'prisma']) {
    for (const f of readdirSync(`${ROOT}${dir}`, { recursive: true })) if (statSync(`${ROOT}${dir}/${f}`).mtimeMs > built) return `${dir}/${f}`;
  }
  return null;
}

/** SIGTERM, then the exit code (null code: killed after `graceMs`). */
export async function stopNode(p, graceMs = 30_000) {
  if (p.exit) return p.exit;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  const e = await p.exited;
  clearTimeout(timer);
  return e;
}

/** Forks bench/downstream.mjs; `call(msg)` sends a command and resolves with its answer. */
export async function startDownstream(secret) {
  const child = fork(new URL('./downstream.mjs', import.meta.url).pathname, [], { env: { ...process.env, FORWARD_SECRET: secret }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map();
  let seq = 0;
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`downstream exited with ${code}`)));
  });
  child.on('message', (m) => { pending.get(m.id)?.(m); pending.delete(m.id); });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const ds = {
    pid: child.pid,
    url: `http://127.0.0.1:${port}/events`,
    call: (msg) => new Promise((resolve) => { const id = ++seq; pending.set(id, resolve); child.send({ ...msg, id }); }),
    stop: () => { child.kill('SIGTERM'); return exited; },
  };
  live.downstreams.add(ds);
  exited.then(() => live.downstreams.delete(ds));
  return ds;
}

/**
 * Stops every process started by startNode/startDownstream that is still running (SIGTERM, then
 * SIGKILL after `graceMs`) and drops every scratch database not dropped yet: for a script's
 * Ctrl-C or failure path, when the code that started them is still awaiting something.
 */
export async function stopEverything(graceMs = 15_000) {
  await Promise.all([...live.nodes].map((p) => stopNode(p, graceMs)));
  await Promise.all([...live.downstreams].map((d) => d.stop()));
  for (const [name, adminUrl] of live.databases) await dropDatabase(adminUrl, name).catch((err) => console.error(`could not drop ${name}: ${err.message}`));
}

const TICK_MS = 1000 / 100; // USER_HZ, 100 on Linux
const cpuOf = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS; // utime + stime
  } catch { return 0; }
};
const postgresPids = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
  try { return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres'; } catch { return false; }
});

/**
 * CPU time of named groups of pids ({name: [pid]}, plus 'postgres': every postgres process
 * on the box, so other databases' work counts too) and of this process. `stop()` returns
 * the average CPU % per group over the interval (100 % = one core).
 */
export function cpuMeter(groups) {
  const read = () => {
    const r = { bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000 };
    for (const [k, pids] of Object.entries(groups)) r[k] = pids.reduce((s, p) => s + cpuOf(p), 0);
    r.postgres = postgresPids().reduce((s, p) => s + cpuOf(p), 0);
    return r;
  };
  const t0 = performance.now(), a = read();
  return () => {
    const b = read(), ms = performance.now() - t0;
    return Object.fromEntries(Object.keys(b).map((k) => [k, Math.round((100 * (b[k] - (a[k] ?? 0))) / ms)]));
  };
}
