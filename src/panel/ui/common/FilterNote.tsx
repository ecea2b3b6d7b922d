// What the toolbar filter leaves out of a list, as the Network panel's status bar says "24 / 33
// requests": a count beside the list's own total (the tab and toolbar counts stay the session's),
// whether the selected row is among the hidden ones, and a way to clear the filter.

export function FilterNote({ shown, total, what, one, selectionHidden, onClear }: { shown: number; total: number; what: string; one: string; selectionHidden: boolean; onClear: () => void }) {
  return (
    <div className="hidden-note" data-testid="filter-note" role="status">
      {selectionHidden && <span data-testid="selection-filtered">The selected {one} is hidden by the filter.</span>}
      <span data-testid="filter-count">
        {shown} of {total} {what} match the filter.
      </span>
      <button type="button" className="linkbtn" onClick={onClear}>
        Clear filter
      </button>
    </div>
  );
}
