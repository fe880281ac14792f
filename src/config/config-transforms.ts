/** class-transformer helpers: environment variables arrive as strings. */

export const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? ({ true: true, '1': true, false: false, '0': false }[value.trim().toLowerCase()] ?? value) : value;

export const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value);

export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * A comma-separated list, trimmed, empty items dropped; unset or blank is the empty list.
 * Secrets are lists so that the old and the new value both work during a rotation.
 */
export const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((item) => item.trim()).filter((item) => item !== '') : (value ?? []);

/** Same-named constraint message for every item of a list setting. */
export const eachItem = (message: string) => ({ each: true, message });

/** An HTTP header name (RFC 9110 token), as a custom-header credential is configured. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
