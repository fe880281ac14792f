import { KINDS, SOURCE_NAMES, STATUSES, type ListQuery } from '../../api/types';

/** GET /messages' filters, as kept in the URL hash (#/events?status=dead&provider=meta). */
export const FILTER_NAMES = ['status', 'provider', 'kind', 'type', 'from', 'tenant', 'destination', 'since', 'until', 'limit'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];
export type Filters = Partial<Record<FilterName, string>>;

export function filtersFromParams(params: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value !== null && value !== '') filters[name] = value;
  }
  return filters;
}

const oneOf = <T extends string>(values: readonly T[], value: string | undefined): T | undefined =>
  values.find((v) => v === value);

/** The list query for these filters; an unknown enum value is dropped, other values go to the API as typed (it names a bad one). */
export function toListQuery(filters: Filters): Omit<ListQuery, 'cursor'> {
  const query: Omit<ListQuery, 'cursor'> = {
    status: oneOf(STATUSES, filters.status),
    provider: oneOf(SOURCE_NAMES, filters.provider),
    kind: oneOf(KINDS, filters.kind),
    type: filters.type,
    from: filters.from,
    tenant: filters.tenant,
    destination: filters.destination,
    since: filters.since,
    until: filters.until,
    limit: filters.limit ? Number(filters.limit) : undefined,
  };
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Omit<ListQuery, 'cursor'>;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the value of <input type="datetime-local"> (local time, seconds). */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A datetime-local value (the browser's zone) as the API wants it: RFC 3339 with Z. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
