const pad = (n: number) => String(n).padStart(2, '0');

/** Local time as YYYY-MM-DD HH:MM:SS; the exact instant (ISO) in the title and datetime. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const d = new Date(at);
  const text = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return (
    <time dateTime={at} title={at}>
      {text}
    </time>
  );
}

export function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} days`;
}

export const count = (n: number) => n.toLocaleString('en-US');

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status}</span>;
}

/** A value exactly as the API returned it (phone numbers included: never re-masked or unmasked). */
export function Value({ value }: { value: string | number | boolean | null | undefined }) {
  if (value === null || value === undefined || value === '') return <span class="muted">—</span>;
  return <>{String(value)}</>;
}
