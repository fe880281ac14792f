/** Previous / next page buttons; a missing handler disables its button. */
export function Pager({ pageNumber, previous, next }: { pageNumber: number; previous?: () => void; next?: () => void }) {
  return (
    <nav class="pager" aria-label="Pages of results">
      <button type="button" class="secondary" onClick={previous} disabled={!previous}>
        ← Previous page
      </button>
      <span aria-live="polite">Page {pageNumber}</span>
      <button type="button" class="secondary" onClick={next} disabled={!next}>
        Next page →
      </button>
    </nav>
  );
}
