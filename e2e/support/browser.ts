// Browser side of the portal's end-to-end tests: Debian's chromium driven by
// playwright-core (no browser download), sign-in, and screenshots in test-artifacts/.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = join(ROOT, 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Fails with the fix in the message when the build or the browser is missing. */
export function assertPrerequisites(): void {
  if (!existsSync(join(ROOT, 'portal/dist/index.html'))) {
    throw new Error('portal/dist is missing: run `npm run build` first (npm test does it through pretest)');
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No browser at ${CHROMIUM}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH`);
  }
}

export function launchBrowser(): Promise<Browser> {
  assertPrerequisites();
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Uncaught errors of every page opened by openPage; a test suite asserts it stays empty. */
export const pageErrors: string[] = [];

/** A fresh browser context (own storage) with one page; `timezoneId` overrides the machine's zone. */
export async function openPage(browser: Browser, viewport = LAPTOP, timezoneId?: string): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/portal/sign-in`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The main navigation's link to a section. */
export const navLink = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true });
