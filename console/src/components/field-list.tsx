import type { ComponentChildren } from 'preact';

export type Field = [term: string, value: ComponentChildren];

/** A record's fields as a description list: one term and its value per row. */
export function FieldList({ fields, class: className = 'fields', label }: { fields: Field[]; class?: string; label?: string }) {
  return (
    <dl class={className} aria-label={label}>
      {fields.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
