// A table that reads as a list of cards on phones (styles.css: each row a card, each cell
// under its column's name) and as a table elsewhere; on a screen in between it scrolls
// sideways inside its frame instead of breaking the layout.
import { useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';

/** A header's words without its sort mark (▲, ▼, ↕ are aria-hidden decoration). */
function headerLabel(th: Element): string {
  let text = '';
  th.childNodes.forEach(function collect(node) {
    if (node instanceof HTMLElement && node.getAttribute('aria-hidden') === 'true') return;
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
    else node.childNodes.forEach(collect);
  });
  return text.trim();
}

/**
 * Gives every body cell a `data-label` with its column's name, which the phone layout shows
 * before the value. Done here once, so every table gets it without each row repeating its
 * headers; a MutationObserver catches rows a child component adds or replaces on its own.
 */
function useCellLabels(table: RefObject<HTMLTableElement | null>) {
  useLayoutEffect(() => {
    const element = table.current;
    if (!element) return undefined;
    const label = () => {
      const headers = Array.from(element.tHead?.rows[0]?.cells ?? []).map(headerLabel);
      for (const body of Array.from(element.tBodies)) {
        for (const row of Array.from(body.rows)) {
          let column = 0;
          for (const cell of Array.from(row.cells)) {
            const name = headers[column] ?? '';
            if (cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
            column += cell.colSpan;
          }
        }
      }
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  });
}

/** `dense`: on phones each row is a short card whose values run on without column names (a feed). */
export function Table({ caption, head, children, dense = false }: { caption: string; head: ReactNode; children: ReactNode; dense?: boolean }) {
  const table = useRef<HTMLTableElement>(null);
  useCellLabels(table);
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table ref={table} className={dense ? 'list-table list-table-dense' : 'list-table'}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>{head}</thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
