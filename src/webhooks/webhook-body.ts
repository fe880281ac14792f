import type { IncomingMessage } from 'node:http';
import { parse as parseContentType, type ContentType } from 'content-type';
import getRawBody from 'raw-body';
import { InvalidPayloadError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../common/domain-errors.js';

/** A webhook body as sent and as parsed: signatures are computed over the bytes. */
export interface WebhookBody {
  rawBody: Buffer;
  body: unknown;
}

const JSON_TYPE = /^application\/(?:json|[^/;\s]+\+json)$/;

/**
 * Reads a webhook request's body: `application/json` (or `application/*+json`), UTF-8,
 * uncompressed (JSON is UTF-8 by RFC 8259, and the providers' signatures cover the bytes they
 * sent), at most `limit` (e.g. `4mb`), then parsed once. Throws the domain error the answer is made from.
 */
export async function readWebhookBody(req: IncomingMessage, limit: string): Promise<WebhookBody> {
  checkMediaType(req);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') throw new UnsupportedMediaTypeError(`content-encoding ${encoding} is not supported: send the body uncompressed`);
  const rawBody = await readBytes(req, limit);
  try {
    return { rawBody, body: JSON.parse(rawBody.toString('utf8')) };
  } catch (error) {
    throw new InvalidPayloadError(`body is not valid JSON: ${(error as Error).message}`);
  }
}

function checkMediaType(req: IncomingMessage): void {
  const header = req.headers['content-type'];
  let parsed: ContentType;
  try {
    parsed = parseContentType(header ?? '');
  } catch {
    throw new InvalidPayloadError('body is not JSON: send Content-Type application/json');
  }
  if (!JSON_TYPE.test(parsed.type)) throw new InvalidPayloadError('body is not JSON: send Content-Type application/json');
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedMediaTypeError(`charset ${charset} is not supported: JSON bodies are UTF-8`);
  }
}

async function readBytes(req: IncomingMessage, limit: string): Promise<Buffer> {
  try {
    return await getRawBody(req, { length: req.headers['content-length'], limit });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new PayloadTooLargeError(`body is larger than WEBHOOK_BODY_LIMIT (${limit})`);
    if (type === 'request.size.invalid') throw new InvalidPayloadError('body length does not match Content-Length');
    throw error; // request.aborted and socket errors: the caller is gone, there is no one to answer
  }
}
