/**
 * U1 measurements (docs/performance.md) shared by `measure-bundle.ts` and
 * `tests/e2e/shell-perf.test.ts`: what JavaScript the browser really
 * downloads (gzip sizes of the responses, as a compressing server would send
 * them) and how long the ticket screen takes to become usable, against the
 * production build served by a real kernel.
 */
import { gzipSync } from 'node:zlib';
import type pg from 'pg';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';

/** docs/performance.md U1. */
export const U1_INITIAL_JS_GZIP_LIMIT = 250 * 1024;
export const U1_TICKET_SCREEN_TTI_LIMIT_MS = 1000;

export interface JsFile {
  url: string;
  bytes: number;
  gzip: number;
  /** Body bytes as sent by the server (brotli or gzip when it precompressed the file, else the file itself). */
  wire: number;
  /** When the browser started the request, in ms since the epoch (the page's clock, like `performance.timeOrigin`). */
  startedAt: number;
}

/** Records every JavaScript response of a page (module scripts, dynamic imports, remote entries). */
export class JsRecorder {
  readonly files: JsFile[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(page: Page) {
    page.on('response', (res) => {
      const p = this.record(res).finally(() => this.pending.delete(p));
      this.pending.add(p);
    });
  }

  private async record(res: Response): Promise<void> {
    const type = res.headers()['content-type'] ?? '';
    const url = res.url();
    if (!/javascript/.test(type) && !/\.m?js(\?|$)/.test(new URL(url).pathname)) return;
    if (res.status() >= 300) return;
    const body = await res.body().catch(() => undefined);
    if (!body) return;
    const sizes = await res.request().sizes().catch(() => undefined);
    this.files.push({ url, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length, wire: sizes?.responseBodySize ?? body.length, startedAt: res.request().timing().startTime });
  }

  /** Waits for the bodies of the responses seen so far. */
  async settle(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Everything recorded, and forgets it (the next phase starts at zero). */
  take(): JsFile[] {
    return this.files.splice(0, this.files.length);
  }
}

export const sumGzip = (files: JsFile[]) => files.reduce((n, f) => n + f.gzip, 0);
export const sumWire = (files: JsFile[]) => files.reduce((n, f) => n + f.wire, 0);
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The largest files first, for a report. */
export function describeFiles(files: JsFile[], top = 12): string {
  return [...files].sort((a, b) => b.gzip - a.gzip).slice(0, top)
    .map((f) => `    ${kb(f.gzip).padStart(9)}  ${new URL(f.url).pathname.replace(/^\/assets\//, '').slice(0, 90)}`).join('\n');
}

/**
 * Lets the network go quiet: the JS a screen needs has arrived when no
 * request is in flight for a short while (dynamic imports chain, so one
 * idle moment is not enough).
 */
export async function networkQuiet(page: Page, quietMs = 500, timeoutMs = 15_000): Promise<void> {
  let inflight = 0;
  let last = Date.now();
  const up = () => {
    inflight += 1;
    last = Date.now();
  };
  const down = () => {
    inflight = Math.max(0, inflight - 1);
    last = Date.now();
  };
  page.on('request', up);
  page.on('requestfinished', down);
  page.on('requestfailed', down);
  const end = Date.now() + timeoutMs;
  try {
    while (Date.now() < end && (inflight > 0 || Date.now() - last < quietMs)) await page.waitForTimeout(50);
  } finally {
    page.off('request', up);
    page.off('requestfinished', down);
    page.off('requestfailed', down);
  }
}

/** A fresh context (empty cache, as a first visit) and its page. */
export async function freshPage(browser: Browser, base: string, session?: unknown): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 800 } });
  if (session) await context.addInitScript((s) => window.localStorage.setItem('session', s), JSON.stringify(session));
  return { context, page: await context.newPage() };
}

/** The login page is usable: the form takes input and the button can be pressed. */
export async function loginPageReady(page: Page): Promise<void> {
  await page.getByLabel('E-mail').waitFor({ state: 'visible', timeout: 60_000 });
  await page.getByRole('button', { name: 'Entrar' }).waitFor({ state: 'visible' });
}

/**
 * The ticket screen is usable: rows are in the list and the composer of the
 * open ticket accepts typing. Resolves with the time since navigation start
 * (the browser's own clock, so the test runner's overhead is not counted).
 */
export async function ticketScreenReady(page: Page, timeoutMs = 60_000): Promise<number> {
  await page.waitForFunction(() => {
    const rows = document.querySelectorAll('[data-testid="ticket-row"]').length;
    const composer = document.querySelector('[data-testid="composer"]') as HTMLTextAreaElement | null;
    if (rows > 0 && composer && !composer.disabled && !composer.readOnly) {
      // Stamp the first moment both were there, in the page's clock.
      (window as unknown as { __ticketReady?: number }).__ticketReady ??= performance.now();
      return true;
    }
    return false;
  }, undefined, { timeout: timeoutMs, polling: 'raf' });
  // The composer must really take a keystroke, not just exist.
  const composer = page.getByTestId('composer');
  await composer.focus();
  return page.evaluate(() => (window as unknown as { __ticketReady: number }).__ticketReady);
}

/** The login answer, as the shell stores it after a successful login. */
export async function loginAnswer(base: string, email: string, password: string): Promise<unknown> {
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Seeds `count` open tickets (each with its contact, numbered after the
 * agent so two agents' seeds never collide, and two messages) for one agent in set-based SQL: 10k rows take well under a second, where the
 * API would take minutes. Newest ticket has the highest id. Returns the ids.
 */
export async function seedTickets(sql: pg.Pool, o: { tenantId: number; channelId: number; userId: number; count: number; status?: 'open' | 'pending' }): Promise<number[]> {
  const status = o.status ?? 'open';
  const { rows } = await sql.query<{ id: number }>(
    `WITH c AS (
       INSERT INTO contacts (tenant_id, name, number)
       SELECT $1, 'Cliente ' || lpad(g::text, 5, '0'), (5510000000000 + $3::bigint * 100000 + g)::text FROM generate_series(1, $4::int) g
       RETURNING id, number
     ), t AS (
       INSERT INTO tickets (tenant_id, contact_id, channel_id, user_id, status, unread_messages, last_message, last_message_at, created_at, updated_at)
       SELECT $1, c.id, $2, CASE WHEN $5 = 'pending' THEN NULL ELSE $3::int END, $5, (c.id % 4)::int, 'Mensagem do cliente ' || c.number,
              now() - ((10000000 - c.id) % 86400) * interval '1 second', now() - interval '1 day', now()
         FROM c
       RETURNING id, contact_id, last_message_at
     ), m AS (
       INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, provider_id, from_me, body, status, timestamp)
       SELECT $1, t.id, t.contact_id, $2, 'seed-' || t.id || '-' || k, k = 2, CASE WHEN k = 1 THEN 'Olá, preciso de ajuda com meu pedido' ELSE 'Claro! Qual o número do pedido?' END,
              CASE WHEN k = 2 THEN 'read' ELSE 'received' END, t.last_message_at - (2 - k) * interval '1 minute'
         FROM t, generate_series(1, 2) k
       RETURNING 1
     )
     SELECT id FROM t ORDER BY id`,
    [o.tenantId, o.channelId, o.userId, o.count, status],
  );
  return rows.map((r) => r.id);
}

export interface U1Figures {
  /** JS of a first visit to the login page, until the form is usable. */
  loginPage: JsFile[];
  /** JS fetched after pressing "Entrar", until the ticket screen is usable (same tab, cache warm from the login page). */
  afterLogin: JsFile[];
  /** JS of a first load of the shell while logged in (empty cache), landing on a ticket, until usable. */
  loggedInFirstLoad: JsFile[];
  /** What that first load fetched afterwards, once idle (plugin remotes, the English fallback, prefetches). */
  loggedInDeferred: JsFile[];
  /** Time to interactive of the ticket screen, ms from navigation start, one per run (warm cache: the agent's normal reload). */
  ttiWarmMs: number[];
  /** Same with an empty cache each time. */
  ttiColdMs: number[];
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

/** What the recorder holds once the bodies already received are read. */
async function taken(rec: JsRecorder): Promise<JsFile[]> {
  await rec.settle();
  return rec.take();
}

/**
 * Runs the U1 measurements against a served production build: `agent` is a
 * plain user with open tickets, `ticketId` one of them. JS is counted up to
 * the moment the screen is usable (what the user waited for); what comes in
 * after (remotes loaded in the background) is reported apart.
 */
export async function measureU1(browser: Browser, base: string, agent: { email: string; password: string }, ticketId: number, runs = 5): Promise<U1Figures> {
  // 1. Login page, first visit, then log in through the form and open a ticket.
  const first = await freshPage(browser, base);
  const rec = new JsRecorder(first.page);
  await first.page.goto(`${base}/#/login`);
  await loginPageReady(first.page);
  const loginPage = await taken(rec);
  await networkQuiet(first.page);
  await taken(rec);
  await first.page.getByLabel('E-mail').fill(agent.email);
  await first.page.getByLabel('Senha', { exact: true }).fill(agent.password);
  await first.page.getByRole('button', { name: 'Entrar' }).click();
  await first.page.waitForURL((u) => u.hash.startsWith('#/atendimento'), { timeout: 60_000 });
  await first.page.getByTestId('ticket-row').filter({ hasText: 'Cliente' }).first().click();
  await ticketScreenReady(first.page);
  const afterLogin = await taken(rec);
  const session = await first.page.evaluate(() => window.localStorage.getItem('session'));
  await first.context.close();
  if (!session) throw new Error('no session after login');

  // 2. First load of the shell after login: empty cache, straight onto a ticket.
  const ttiColdMs: number[] = [];
  let loggedInFirstLoad: JsFile[] = [];
  let loggedInDeferred: JsFile[] = [];
  for (let i = 0; i < runs; i++) {
    const cold = await freshPage(browser, base, JSON.parse(session));
    const r = new JsRecorder(cold.page);
    await cold.page.goto(`${base}/#/atendimento/${ticketId}`);
    ttiColdMs.push(await ticketScreenReady(cold.page));
    if (i === 0) {
      // Split by when each request started, not by when the runner got to look: on a busy machine the
      // background loads (remotes, overlays; they start once the screen is idle) may already be answered.
      const readyAt = await cold.page.evaluate(() => performance.timeOrigin + (window as unknown as { __ticketReady: number }).__ticketReady);
      await networkQuiet(cold.page, 1500);
      const all = await taken(r);
      loggedInFirstLoad = all.filter((f) => f.startedAt <= readyAt);
      loggedInDeferred = all.filter((f) => f.startedAt > readyAt);
    }
    await cold.context.close();
  }

  // 3. The same with the browser cache warm (an agent reloading the page).
  const ttiWarmMs: number[] = [];
  const warm = await freshPage(browser, base, JSON.parse(session));
  await warm.page.goto(`${base}/#/atendimento/${ticketId}`);
  await ticketScreenReady(warm.page);
  await networkQuiet(warm.page);
  for (let i = 0; i < runs; i++) {
    await warm.page.reload();
    ttiWarmMs.push(await ticketScreenReady(warm.page));
  }
  await warm.context.close();
  return { loginPage, afterLogin, loggedInFirstLoad, loggedInDeferred, ttiWarmMs, ttiColdMs };
}

/** The report printed by the script and the test. */
export function formatU1(f: U1Figures): string {
  const line = (label: string, bytes: number, limit?: number, wire?: number) =>
    `  ${label.padEnd(66)} ${kb(bytes).padStart(9)}${limit ? `   target < ${kb(limit)}  ${bytes < limit ? 'met' : 'MISSED'}` : ''}${wire === undefined ? '' : `   (sent: ${kb(wire)})`}`;
  const login = sumGzip(f.loginPage);
  const after = sumGzip(f.afterLogin);
  const firstLoad = sumGzip(f.loggedInFirstLoad);
  const verbose = Boolean(process.env.U1_VERBOSE);
  return [
    'U1 shell (production build; gzip -9 of each JS response, counted until the screen is usable; "sent" is what the server really sent)',
    line(`login page, first visit (${f.loginPage.length} files)`, login, U1_INITIAL_JS_GZIP_LIMIT, sumWire(f.loginPage)),
    line(`login page, log in, ticket screen (${f.loginPage.length + f.afterLogin.length} files)`, login + after, U1_INITIAL_JS_GZIP_LIMIT, sumWire(f.loginPage) + sumWire(f.afterLogin)),
    line(`  of which after pressing Entrar (${f.afterLogin.length} files)`, after),
    line(`first load of the shell after login, on a ticket (${f.loggedInFirstLoad.length} files)`, firstLoad, U1_INITIAL_JS_GZIP_LIMIT, sumWire(f.loggedInFirstLoad)),
    line(`  then in the background: remotes, fallback catalogue (${f.loggedInDeferred.length} files)`, sumGzip(f.loggedInDeferred)),
    `  ticket screen interactive (rows + composer), median of ${f.ttiColdMs.length}: empty cache ${median(f.ttiColdMs).toFixed(0)} ms, warm cache ${median(f.ttiWarmMs).toFixed(0)} ms   target < ${U1_TICKET_SCREEN_TTI_LIMIT_MS} ms  ${median(f.ttiColdMs) < U1_TICKET_SCREEN_TTI_LIMIT_MS ? 'met' : 'MISSED'}`,
    `    runs: empty cache ${f.ttiColdMs.map((x) => x.toFixed(0)).join(', ')}; warm ${f.ttiWarmMs.map((x) => x.toFixed(0)).join(', ')}`,
    '  largest files of the logged-in first load:',
    describeFiles(f.loggedInFirstLoad, verbose ? 300 : 10),
    ...(verbose ? ['  login page files:', describeFiles(f.loginPage, 300), '  deferred files:', describeFiles(f.loggedInDeferred, 300)] : []),
  ].join('\n');
}
