import { monitorEventLoopDelay } from 'node:perf_hooks';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

const KEY = 'EVOLUTION-LINEAR-TIME-KEY-0001';

/**
 * Issue 20, point 1, over HTTP: an Evolution event name of slashes (sent with a valid key) made
 * the old normaliser's regex quadratic (100,000 slashes blocked the event loop for 8 s here, and
 * /health with it; twice as many, four times as long). The app runs in this process, so the event loop's own delay histogram
 * shows any block, whatever the machine's load does to wall-clock times.
 */
describe('an Evolution event name of 200,000 slashes', () => {
  const ctx = useServiceWithDatabase({ WEBHOOK_PROVIDERS: 'meta,evolution', EVOLUTION_API_KEY: KEY });

  it('is refused at once with a 400 naming the field and its limit, and /health answers meanwhile', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const body = { event: `x${'/'.repeat(200_000)}x`, instance: 'sales', data: {}, apikey: KEY, date_time: '2026-11-29T10:00:00.000Z' };
    const [answer, health] = await Promise.all([
      postWebhook<{ message: string }>(ctx.service.baseUrl, body, {}, { sign: false, path: '/webhook/evolution' }),
      fetch(`${ctx.service.baseUrl}/health`),
    ]);
    delay.disable();
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('event is 200002 characters long; at most 128 are accepted');
    expect(health.status).toBe(200);
    // Before the fix the loop was blocked for the whole normalisation (~30 s at this size); a
    // linear path blocks it for milliseconds. 4 s leaves room for a busy machine and cannot pass a quadratic path.
    expect(delay.max / 1e6).toBeLessThan(4_000);
    const [stored] = await ctx.db.query("SELECT count(*)::int AS n FROM messages WHERE tenant = 'sales'");
    expect(stored.n).toBe(0);
  });
});
