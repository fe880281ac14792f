/** The most of a downstream's answer the forward step reads; the rest is cancelled, not downloaded. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Reads at most `limit` bytes of a response body, then cancels the stream, so a downstream that
 * answers with an endless or huge body costs neither memory nor time. A body read to its end
 * leaves the keep-alive connection reusable; a cancelled one closes it, which is the right
 * price for a misbehaving downstream.
 */
export async function readBounded(response: Response, limit = MAX_ANSWER_BYTES): Promise<{ text: string; truncated: boolean }> {
  if (response.body === null) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
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
