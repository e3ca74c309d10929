/**
 * Browser tests: Debian's Chromium driven by playwright-core, never a
 * downloaded browser. Each test gets a fresh profile directory.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.ATENDE_CHROMIUM ?? '/usr/bin/chromium';

/** The flags Chromium needs as root in a container (no sandbox, no GPU, a fresh profile each launch), plus a quiet network. */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM);
}

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  // playwright gives every launch a fresh temporary profile of its own (and refuses --user-data-dir here).
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/** A browser context already logged in: the session record goes into localStorage before the shell loads. */
export async function loggedInPage(browser: Browser, baseUrl: string, session: Record<string, unknown>, opts: { locale?: string; viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, locale: opts.locale ?? 'pt-BR', viewport: opts.viewport ?? { width: 1366, height: 800 } });
  await context.addInitScript((s) => {
    for (const [k, v] of Object.entries(s)) window.localStorage.setItem(k, typeof v === 'string' ? v : JSON.stringify(v));
  }, session);
  const page = await context.newPage();
  return { context, page };
}
