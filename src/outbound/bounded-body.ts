import type { Readable } from 'node:stream';

/** The most of a downstream's answer the forward step reads; the rest is not downloaded. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Reads at most `limit` bytes of a response body, then destroys the stream, so a downstream that
 * answers with an endless or huge body costs neither memory nor time. A body read to its end
 * leaves the keep-alive connection reusable; a destroyed one closes it, which is the right
 * price for a misbehaving downstream.
 */
export async function readBounded(body: Readable, limit = MAX_ANSWER_BYTES): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > limit) {
      body.destroy();
      return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/** A short, single-line excerpt of an answer for last_error (which is shown to operators). */
export function excerpt(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${Array.from(line).slice(0, max - 1).join('')}…`;
}
