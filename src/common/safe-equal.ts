import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time string comparison. Both sides are hashed first so neither the content nor the
 * length of the expected value leaks through timing.
 */
export function safeEqual(actual: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(actual), digest(expected));
}
