import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { pinoHttp } from 'pino-http';
import { validateConfig } from '../../test/support/settings.js';
import { loggerOptions, readableByAPerson, requestId } from './logger-options.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A logger built from the service's options, writing into an array of parsed lines. */
function capture() {
  const lines: string[] = [];
  const options = loggerOptions(validateConfig({ DATABASE_URL: 'postgresql://x@localhost/x', LOG_LEVEL: 'debug' }), false).pinoHttp as Options;
  const { logger } = pinoHttp(options, { write: (line: string) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

function fakeExchange(headers: Record<string, string | undefined>) {
  const set: Record<string, string> = {};
  const req = { headers } as unknown as IncomingMessage;
  const res = { setHeader: (name: string, value: string) => void (set[name] = value) } as unknown as ServerResponse;
  return { req, res, set };
}

describe('requestId', () => {
  it('keeps a safe X-Request-Id and echoes it', () => {
    const { req, res, set } = fakeExchange({ 'x-request-id': 'test-req-42' });
    expect(requestId(req, res)).toBe('test-req-42');
    expect(set['X-Request-Id']).toBe('test-req-42');
  });

  it.each([
    ['a newline', 'abc\n{"level":60,"msg":"forged"}'],
    ['spaces', 'abc def'],
    ['500 characters', 'a'.repeat(500)],
    ['an empty value', ''],
    ['none', undefined],
  ])('replaces %s with a fresh UUID', (_what, incoming) => {
    const { req, res, set } = fakeExchange({ 'x-request-id': incoming });
    const id = requestId(req, res);
    expect(id).toMatch(UUID);
    expect(set['X-Request-Id']).toBe(id);
  });
});

describe('loggerOptions redaction', () => {
  it('censors credential-named keys and headers', () => {
    const { logger, parsed } = capture();
    logger.info(
      {
        token: 't0ken-value',
        config: { secret: 's3cret-value', password: 'pa55word', accessToken: 'EAAG-value' },
        headers: { authorization: 'Bearer abc', 'x-hub-signature-256': 'sha256=deadbeef', 'content-type': 'application/json' },
        sessionId: 'SESSION_API_KEY',
      },
      'something',
    );
    const [line] = parsed();
    expect(line.token).toBe('[Redacted]');
    expect(line.config).toEqual({ secret: '[Redacted]', password: '[Redacted]', accessToken: '[Redacted]' });
    expect(line.headers).toEqual({ authorization: '[Redacted]', 'x-hub-signature-256': '[Redacted]', 'content-type': 'application/json' });
    expect(line.sessionId).toBe('[Redacted]');
  });

  it('cuts phone numbers out of messages, interpolated values, fields and errors', () => {
    const { logger, lines, parsed } = capture();
    logger.warn('event wasender:receipt:3EB0:read:+4915123456789@s.whatsapp.net failed');
    logger.warn({ context: 'Worker' }, 'sender %s wrote', '16505551234');
    logger.info({ detail: { key: 'meta:status:wamid.X:read:16505551234' }, list: ['16505551234'] }, 'fields');
    logger.error({ err: new Error('duplicate key (message_id)=(wasender:receipt:1:read:16505551234)') });
    logger.error(new Error('lookup of 16505551234 failed', { cause: new Error('cause mentions 4915123456789') }));
    const all = lines.join('');
    expect(all).not.toMatch(/16505551234|4915123456789/);
    const [first, second, third, fourth, fifth] = parsed();
    expect(first.msg).toBe('event wasender:receipt:3EB0:read:…89@s.whatsapp.net failed');
    expect(second.msg).toBe('sender …34 wrote');
    expect(third.detail.key).toBe('meta:status:wamid.X:read:…34');
    expect(third.list).toEqual(['…34']);
    expect(fourth.msg).toBe('duplicate key (message_id)=(wasender:receipt:1:read:…34)');
    expect(fourth.err.message).toBe('duplicate key (message_id)=(wasender:receipt:1:read:…34)');
    expect(fourth.err.stack).toMatch(/^Error: duplicate key .*…34\)/);
    expect(fifth.err.message).toBe('lookup of …34 failed: cause mentions …89');
    expect(fifth.err.type).toBe('Error');
  });

  it('leaves numbers that are not strings (time, pid) alone', () => {
    const { logger, parsed } = capture();
    logger.info({ count: 123456789 }, 'n');
    const [line] = parsed();
    expect(line.count).toBe(123456789);
    expect(typeof line.time).toBe('number');
  });
});

describe('readableByAPerson', () => {
  it('is a terminal outside production only; JSON for pipes, files and production', () => {
    expect(readableByAPerson({ NODE_ENV: undefined }, true)).toBe(true);
    expect(readableByAPerson({ NODE_ENV: 'development' }, true)).toBe(true);
    expect(readableByAPerson({ NODE_ENV: 'production' }, true)).toBe(false);
    expect(readableByAPerson({ NODE_ENV: undefined }, false)).toBe(false);
    const config = validateConfig({ DATABASE_URL: 'postgresql://x@localhost/x' });
    expect(loggerOptions(config, true).pinoHttp).toHaveProperty('transport.target', 'pino-pretty');
    expect(loggerOptions(config, false).pinoHttp).not.toHaveProperty('transport');
  });
});
