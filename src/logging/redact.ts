/**
 * Idempotency keys and error texts can hold phone numbers (WASender participant JIDs, Meta
 * group participants). Logs get every run of 7+ digits cut to its last two.
 */
export function redactPhoneNumbers(text: string): string {
  return text.replace(/\+?\d{7,}/g, (digits) => `…${digits.slice(-2)}`);
}
