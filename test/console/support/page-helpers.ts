import type { Page } from 'playwright-core';

/** Auto-waiting helpers over one console page (no fixed sleeps). */
export function consolePage(page: Page, baseUrl: () => string) {
  const rows = () => page.locator('table tbody tr');
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  return {
    rows,
    heading,
    /** Opens a hash route and waits for its heading. */
    async go(hash: string, title: string) {
      await page.goto(`${baseUrl()}/console/${hash}`);
      await heading(title);
    },
    /** Waits until the table shows exactly `count` rows (the previous data stays shown while the next loads). */
    async rowCount(count: number) {
      if (count > 0) await rows().nth(count - 1).waitFor();
      await rows().nth(count).waitFor({ state: 'detached' });
    },
    /** Waits until the first row's id is (or is no longer) `id`. */
    firstId(id: string, is = true) {
      const cell = page.locator('table tbody tr:first-child td.id');
      const exactly = new RegExp(`^${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      return (is ? cell.filter({ hasText: exactly }) : cell.filter({ hasNotText: exactly })).waitFor();
    },
  };
}

/** 401 answers while signing in, and the 404 of an unknown receipt, are logged by Chromium as failed loads. */
export const FAILED_LOAD = (status: number) => new RegExp(`Failed to load resource: the server responded with a status of ${status}`);
