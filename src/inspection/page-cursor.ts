/**
 * Where a page of the newest-first listing ended: the last item's received_at (microseconds
 * since the epoch, as text: JavaScript dates stop at milliseconds) and its key, which breaks
 * ties. Opaque to clients (base64url JSON).
 */
export interface PageCursor {
  receivedAtMicros: string;
  id: string;
}

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.receivedAtMicros, cursor.id]), 'utf8').toString('base64url');
}

/** Null for anything that is not a cursor this service issued. */
export function decodeCursor(text: string): PageCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [micros, id] = value;
    if (typeof micros !== 'string' || !/^-?\d{1,19}$/.test(micros) || typeof id !== 'string' || id.length > 255) return null;
    return { receivedAtMicros: micros, id };
  } catch {
    return null;
  }
}
