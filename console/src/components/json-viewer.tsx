/**
 * A JSON value as a tree of native <details> (keyboard operable, no library): objects and
 * arrays collapse; strings are shown exactly as stored (phone numbers as the API returns them).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function Leaf({ value }: { value: Json }) {
  if (value === null) return <span class="json-null">null</span>;
  if (typeof value === 'string') return <span class="json-string">"{value}"</span>;
  return <span class={`json-${typeof value}`}>{String(value)}</span>;
}

function Node({ name, value, depth }: { name: string | null; value: Json; depth: number }) {
  const label = name === null ? null : <span class="json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <li>
        {label}
        <Leaf value={value} />
      </li>
    );
  }
  const entries: Array<[string, Json]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <li>
      <details open={depth < 2}>
        <summary>
          {label}
          <span class="muted">{summary}</span>
        </summary>
        <ul class="json">
          {entries.map(([key, child]) => (
            <Node key={key} name={key} value={child} depth={depth + 1} />
          ))}
        </ul>
      </details>
    </li>
  );
}

export function JsonViewer({ value, label }: { value: unknown; label: string }) {
  return (
    <ul class="json json-root" aria-label={label}>
      <Node name={null} value={value as Json} depth={0} />
    </ul>
  );
}
