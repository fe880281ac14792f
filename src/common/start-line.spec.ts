import { startLine } from './start-line.js';

const address = { address: '::', family: 'IPv6', port: 3000 };

describe('startLine', () => {
  it('says where the console, the API docs and each source’s webhook URL are', () => {
    expect(startLine({ address, host: undefined, sources: ['meta', 'wasender', 'generic'], console: 'served' }))
      .toBe('ready: console http://localhost:3000/console/ · API docs http://localhost:3000/docs · webhooks http://localhost:3000/webhook/{meta,wasender,generic}');
  });

  it('names the host it was told to listen on, and says why there is no console', () => {
    expect(startLine({ address, host: '127.0.0.1', sources: ['meta'], console: 'not built' }))
      .toBe('ready: console not built (npm run build) · API docs http://127.0.0.1:3000/docs · webhooks http://127.0.0.1:3000/webhook/meta');
    expect(startLine({ address, host: '::1', sources: ['meta'], console: 'disabled' })).toMatch(/^ready: console off \(CONSOLE_ENABLED=false\) · API docs http:\/\/\[::1\]:3000\/docs/);
  });
});
