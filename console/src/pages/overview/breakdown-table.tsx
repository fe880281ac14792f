import { COUNT_NAMES, type Activity } from '../../api/types';
import { count } from '../../components/format';

type Row = Activity['bySource'][number] | Activity['byTenant'][number];

/** Counts per source or per tenant; a row's name filters the overview to it. */
export function BreakdownTable({ title, rows, nameOf, onPick }: { title: string; rows: Row[]; nameOf(row: Row): string | null; onPick(name: string): void }) {
  if (rows.length === 0) return <p class="muted">No events in this range.</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{title.startsWith('By source') ? 'Source' : 'Tenant'}</th>
            {COUNT_NAMES.map((name) => <th scope="col" class="num" key={name}>{name}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const name = nameOf(row);
            return (
              <tr key={name ?? '(none)'}>
                <th scope="row">
                  {name === null ? <span class="muted">(none)</span> : (
                    <button type="button" class="link" onClick={() => onPick(name)} aria-label={`Show only ${name}`}>{name}</button>
                  )}
                </th>
                {COUNT_NAMES.map((n) => <td class="num" key={n}>{count(row[n])}</td>)}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
