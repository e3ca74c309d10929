#!/usr/bin/env node
/**
 * U1 (docs/performance.md): the shell's initial JavaScript (gzip) on the login page and
 * up to a usable ticket screen after login, and the ticket screen's time to
 * interactive, measured in Chromium against a real kernel serving the
 * production build (`npm run build -w ui-shell` first). Exits 1 on a miss.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 \
 *     node --import tsx ui-shell/scripts/measure-bundle.ts [--runs 5] [--tickets 200]
 */
import { createTestApp } from '../../core/src/testing/index.ts';
import { launchBrowser } from '../../core/src/testing/browser.ts';
import { formatU1, measureU1, median, seedTickets, sumGzip, U1_INITIAL_JS_GZIP_LIMIT, U1_TICKET_SCREEN_TTI_LIMIT_MS } from './perf-kit.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

const t = await createTestApp();
const browser = await launchBrowser();
let ok: boolean;
try {
  const base = await t.baseUrl();
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
  if (ch.statusCode !== 201) throw new Error(`channel: ${ch.statusCode} ${ch.body}`);
  const ids = await seedTickets(t.sql, { tenantId: admin.tenantId, channelId: ch.json().id, userId: agent.id, count: arg('tickets', 200) });
  const figures = await measureU1(browser, base, agent, ids[ids.length - 1]!, arg('runs', 5));
  console.log(formatU1(figures));
  ok = sumGzip(figures.loginPage) + sumGzip(figures.afterLogin) < U1_INITIAL_JS_GZIP_LIMIT
    && sumGzip(figures.loggedInFirstLoad) < U1_INITIAL_JS_GZIP_LIMIT
    && median(figures.ttiColdMs) < U1_TICKET_SCREEN_TTI_LIMIT_MS;
} finally {
  await browser.close();
  await t.close();
}
process.exit(ok ? 0 : 1);
