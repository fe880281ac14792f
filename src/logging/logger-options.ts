import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { EnvironmentSettings } from '../config/settings/environment.settings.js';
import type { LoggingSettings } from './logging.settings.js';
import { credentialHeaders } from '../sources/source-registry.js';
import { redactPhoneNumbers } from './redact.js';

/** An incoming X-Request-Id is kept only when it is a short token that cannot forge or break a log line. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Headers that carry credentials or signatures, should a serializer ever log headers: these,
 * and every registered source's credential headers (its descriptor's credentialHeaders).
 */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-signature-256', 'x-api-key'];
/** Keys whose values are credentials wherever they appear in a logged object (top level or one below). */
const SECRET_KEYS = ['token', 'accessToken', 'access_token', 'verify_token', 'secret', 'appSecret', 'password', 'apiKey', 'api_key', 'apikey', 'sessionId'];

/** Read from the source registry when the logger is built, so a registered source's headers are in. */
export function redactedPaths(): string[] {
  return [
    ...[...SECRET_HEADERS, ...credentialHeaders()].flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`]),
    ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`]),
  ];
}

/**
 * The request id: the caller's X-Request-Id when it is a safe token, else a fresh UUID;
 * echoed in the X-Request-Id response header so a caller can quote it.
 */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The level of a request-completed line: successful requests are the hot path, logged at debug; failures at warn/error. */
export function requestLogLevel(statusCode: number, error?: unknown): 'error' | 'warn' | 'debug' {
  return error || statusCode >= 500 ? 'error' : statusCode >= 400 ? 'warn' : 'debug';
}

/**
 * JSON logs through pino, one object per line. Every line logged while a request is handled
 * (the services' Nest `Logger` calls included: nestjs-pino binds them to the request through
 * AsyncLocalStorage) carries its `reqId`; the worker's lines have none and carry
 * `context: "Worker"`.
 *
 * Secrets and personal data never reach a log line: requests are logged without headers
 * (signatures), query (verify token) or body (phone numbers, message text); credential-named
 * keys and headers are censored should anything log them; and as a safety net every string
 * that is logged — message, error text and stack, string fields — has its runs of 7+ digits
 * (phone numbers) cut to their last two.
 */
export function loggerOptions(config: LoggingSettings & EnvironmentSettings, terminal = process.stdout.isTTY === true): Params {
  return {
    pinoHttp: {
      level: config.LOG_LEVEL,
      ...(readableByAPerson(config, terminal) ? { transport: PRETTY } : {}),
      genReqId: requestId,
      // Lines logged during a request carry only `reqId`; the request-completed line adds req and res.
      quietReqLogger: true,
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) => requestLogLevel(res.statusCode, error),
      // For a 5xx, pino-http attaches `new Error('failed with status code …')`: a stack trace into
      // pino-http itself on every 503. Nest logs real exceptions on its own; drop the made-up one.
      customErrorObject: (_req: IncomingMessage, res: ServerResponse, error: Error, value: Record<string, unknown>) =>
        error.message === `failed with status code ${res.statusCode}` ? { ...value, err: undefined } : value,
      redact: { paths: redactedPaths(), censor: '[Redacted]' },
      serializers: {
        msg: (msg: unknown) => (typeof msg === 'string' ? redactPhoneNumbers(msg) : msg),
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: redactPhoneNumbers(req.url.split('?')[0]),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        // pino-http hands over the standard serialization (type, message with causes, stack, own fields).
        err: (err: unknown) => (err !== null && typeof err === 'object' ? redactStrings({ ...err }) : err),
      },
      formatters: {
        // Fields passed in a log call. Objects with a serializer of their own (req, res, err)
        // are not plain and are left to it.
        log: (object: Record<string, unknown>) => redactStrings(object) as Record<string, unknown>,
      },
    },
  };
}

/**
 * A person at a terminal, not a log collector, reads the lines: outside production, when stdout
 * is a terminal. They get one coloured line per entry (pino-pretty, in a worker thread); the
 * redaction above has already happened by then. Anything else (a pipe, a file, a container's
 * log driver) gets JSON.
 */
export function readableByAPerson(config: EnvironmentSettings, terminal: boolean): boolean {
  return terminal && config.NODE_ENV !== 'production';
}

const PRETTY = {
  target: 'pino-pretty',
  options: { colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,context', messageFormat: '{if context}[{context}] {end}{msg}' },
};

/** A copy with phone numbers redacted from every string in plain objects and arrays (bounded depth). */
export function redactStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactPhoneNumbers(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactStrings(item, depth + 1);
  return copy;
}
