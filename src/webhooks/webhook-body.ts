import type { IncomingMessage } from 'node:http';
import { parse as parseContentType, type ContentType } from 'content-type';
import getRawBody from 'raw-body';
import { InvalidPayloadError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../common/domain-errors.js';
import type { BodyFormat } from '../sources/body-formats.js';

/**
 * A webhook body as sent and as decoded: signatures are computed over the bytes. `body` is
 * decoded on its first read (once, its failure too), so a signature over the bytes is checked
 * before an unauthenticated sender can make the service parse anything.
 */
export interface WebhookBody {
  readonly rawBody: Buffer;
  readonly body: unknown;
}

/**
 * Refuses, from its headers, a body that is not in its source's format (JSON, or Twilio's form
 * posts), UTF-8 and uncompressed (JSON is UTF-8 by RFC 8259, and the providers' signatures cover
 * the bytes they sent). Throws the domain error the answer is made from.
 */
export function checkBodyHeaders(req: IncomingMessage, format: BodyFormat): void {
  checkMediaType(req, format);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') throw new UnsupportedMediaTypeError(`content-encoding ${encoding} is not supported: send the body uncompressed`);
}

/** Reads a webhook request's body (checked by checkBodyHeaders), at most `limit` (e.g. `3mb`). */
export async function readWebhookBody(req: IncomingMessage, limit: string, format: BodyFormat): Promise<WebhookBody> {
  return decodedOnFirstRead(await readBytes(req, limit), format);
}

function decodedOnFirstRead(rawBody: Buffer, format: BodyFormat): WebhookBody {
  let decoded: { value: unknown } | { error: unknown } | undefined;
  return {
    rawBody,
    get body() {
      if (decoded === undefined) {
        try {
          decoded = { value: format.decode(rawBody.toString('utf8')) };
        } catch (error) {
          decoded = { error };
        }
      }
      if ('error' in decoded) throw decoded.error;
      return decoded.value;
    },
  };
}

function checkMediaType(req: IncomingMessage, format: BodyFormat): void {
  const wrongType = () => new InvalidPayloadError(`body is not ${format.mediaType === 'application/json' ? 'JSON' : format.mediaType}: send Content-Type ${format.mediaType}`);
  let parsed: ContentType;
  try {
    parsed = parseContentType(req.headers['content-type'] ?? '');
  } catch {
    throw wrongType();
  }
  if (!format.accepts(parsed.type)) throw wrongType();
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedMediaTypeError(`charset ${charset} is not supported: webhook bodies are UTF-8`);
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
