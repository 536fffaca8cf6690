// Layout checks of a page: nothing wider than the screen, no empty band between the
// header and the page's heading, no hidden element making the page taller than its content.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS } from './browser.js';

export const SCREENSHOTS = join(ARTIFACTS, 'screenshots');

export interface LayoutFacts {
  /** Widest point of the document, in CSS pixels. */
  scrollWidth: number;
  viewportWidth: number;
  /** Pixels between the header's bottom and the first heading's top. */
  gapUnderHeader: number;
  /** Pixels the document extends below the main content (and the viewport). */
  extraHeight: number;
  /**
   * Body cells of list tables that are not fully on screen without scrolling sideways
   * (outside their scrolling frame or the viewport), named `<table>: <column>`: a status or
   * an action a reader would never see on a phone.
   */
  cellsOutOfView: string[];
}

// Run in the page as text: this project compiles without the DOM library.
const MEASURE = `(() => {
    const header = document.querySelector('.topbar');
    const heading = document.querySelector('main h1, .centered h1, h1');
    const main = document.querySelector('main') ?? document.body;
    const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
    const headingTop = heading ? heading.getBoundingClientRect().top : headerBottom;
    const contentBottom = main.getBoundingClientRect().bottom + window.scrollY;
    const cellsOutOfView = [];
    for (const wrap of document.querySelectorAll('.table-wrap')) {
      const frame = wrap.getBoundingClientRect();
      const headers = Array.from(wrap.querySelectorAll('thead th')).map((th) => (th.textContent || '').replace(/[▲▼↕]/g, '').trim());
      for (const row of wrap.querySelectorAll('tbody tr')) {
        Array.from(row.children).forEach((cell, index) => {
          const box = cell.getBoundingClientRect();
          if (box.width === 0) return;
          const left = Math.max(frame.left, 0);
          const right = Math.min(frame.right, window.innerWidth);
          if (box.left < left - 1 || box.right > right + 1) {
            const name = (wrap.getAttribute('aria-label') || 'table') + ': ' + (headers[index] || 'column ' + (index + 1));
            if (!cellsOutOfView.includes(name)) cellsOutOfView.push(name);
          }
        });
      }
    }
    return {
      cellsOutOfView,
      scrollWidth: document.documentElement.scrollWidth,
      viewportWidth: window.innerWidth,
      gapUnderHeader: Math.round(headingTop - headerBottom),
      extraHeight: Math.round(document.documentElement.scrollHeight - Math.max(contentBottom, window.innerHeight)),
    };
  })()`;

export function layoutFacts(page: Page): Promise<LayoutFacts> {
  return page.evaluate(MEASURE) as Promise<LayoutFacts>;
}

/** Full-page screenshot to test-artifacts/screenshots/<size>-<name>.png. */
export async function pageScreenshot(page: Page, size: string, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${size}-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
