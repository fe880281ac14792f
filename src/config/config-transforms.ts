/** class-transformer helpers: environment variables arrive as strings. */

export const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? ({ true: true, '1': true, false: false, '0': false }[value.trim().toLowerCase()] ?? value) : value;

export const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value);

export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
