/** Prisma migration names start with their creation time: `20261129000000_init`. Not a phone number. */
const MIGRATION_NAME_PREFIX = /^20\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])([01]\d|2[0-3])[0-5]\d[0-5]\d$/;

/**
 * Idempotency keys and error texts can hold phone numbers (WASender participant JIDs, Meta
 * group participants). Logs get every run of 7+ digits cut to its last two, except the
 * timestamp that starts a migration name (14 digits and `_`), so migration logs stay readable.
 */
export function redactPhoneNumbers(text: string): string {
  return text.replace(/\+?\d{7,}/g, (digits, offset: number) =>
    text[offset + digits.length] === '_' && MIGRATION_NAME_PREFIX.test(digits)
      ? digits
      : `…${digits.slice(-2)}`,
  );
}
