import { jest } from '@jest/globals';
import { WebhooksService } from '../src/webhooks/webhooks.service.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

/**
 * An error the service did not foresee, after the body was read to its end, is answered 500
 * (the provider retries): never left unanswered. Node marks a request whose body was read to
 * its end as destroyed, so "the caller hung up" must be read from the socket, not the request.
 */
describe('an unexpected failure of a webhook request', () => {
  const ctx = useServiceWithDatabase({ WEBHOOK_PROVIDERS: 'generic' });

  it('is answered 500, and the next webhook request is taken as usual', async () => {
    const receive = jest.spyOn(ctx.service.app.get(WebhooksService), 'receive').mockRejectedValueOnce(new TypeError('not foreseen'));
    const body = () => ({ id: `unexpected-${Date.now()}-${Math.random()}`, from: '1', timestamp: Math.floor(Date.now() / 1000) });
    const failed = await postWebhook(ctx.service.baseUrl, body(), {}, { path: '/webhook/generic' });
    expect(failed).toMatchObject({ status: 500, body: { statusCode: 500, message: 'Internal server error' } });
    receive.mockRestore();
    expect(await postWebhook(ctx.service.baseUrl, body(), {}, { path: '/webhook/generic' })).toMatchObject({ status: 200, body: { accepted: 1 } });
  });
});
