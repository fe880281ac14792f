import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

/** Debian's Chromium (CI installs it with apt): Playwright's own browser download is unreachable. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Screenshots land here (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/console/', import.meta.url));

/**
 * Whether the browser tests can run: without Chromium they fail in CI (CI=true) with a clear
 * message, and are skipped elsewhere with a warning.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium); .ci/run does`);
  console.warn(`${CHROMIUM} is missing: the console's browser tests are skipped (apt-get install chromium to run them)`);
  return false;
}

export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions since the last check. */
  takeErrors(): string[];
  /** Fails when the page logged an error (other than those `allowed` match) since the last check. */
  expectNoErrors(allowed?: RegExp[]): void;
}

/** A page whose console errors and uncaught exceptions are recorded. */
export async function watchedPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  let errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  const takeErrors = () => {
    const taken = errors;
    errors = [];
    return taken;
  };
  return {
    page,
    takeErrors,
    expectNoErrors(allowed = []) {
      expect(takeErrors().filter((e) => !allowed.some((pattern) => pattern.test(e)))).toEqual([]);
    },
  };
}

export const screenshot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage });
