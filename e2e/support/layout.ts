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
}

// Run in the page as text: this project compiles without the DOM library.
const MEASURE = `(() => {
    const header = document.querySelector('.topbar');
    const heading = document.querySelector('main h1, .centered h1, h1');
    const main = document.querySelector('main') ?? document.body;
    const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
    const headingTop = heading ? heading.getBoundingClientRect().top : headerBottom;
    const contentBottom = main.getBoundingClientRect().bottom + window.scrollY;
    return {
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
