/**
 * The [K4] "Done when" proof: a new feature plugin — a screen, a menu entry,
 * an error code, an event and a setting — is one folder under plugins/ plus
 * one under ui-plugins/, with no edit to core/, ui-shell/ or another plugin.
 *
 * The repository is copied into a temporary folder (the sources, the built
 * shell and remotes, and a node_modules of links to this checkout's packages;
 * npm would link the new workspaces, so the test adds the two links
 * `@atende/plugin-<id>` and `@atende/ui-plugin-<id>` itself). There `atende
 * plugin create feature` writes the plugin, `npm run build -w` builds its
 * remote, and the app starts on the copy with every plugin. In Chromium an
 * admin finds the new rail entry, opens the screen, creates an item, meets
 * the plugin's own error in Portuguese, requires a note in the setting and
 * sees the form follow it; a colleague's page receives the items and the
 * setting live. The generated code passes the lint boundary, and git in the
 * copy shows that only the two new folders changed.
 * Screenshots go to /tmp/shots/scaffold-*.png.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const ID = 'lembretes';
const LABEL = 'Lembretes';
const built = fs.existsSync(path.join(REPO, 'ui-shell/dist/index.html'));
const run = chromiumAvailable() && built ? describe : describe.skip;

/** Runs a command to its end without blocking the event loop (the app and the browser keep working); rejects with its output on failure. */
function exec(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out.slice(-4000)}`))));
  });
}

/** The environment of a command run as an author would run it: vitest's own variables (NODE_ENV=test, VITEST…) make vite build without module federation. */
const authorEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && k !== 'TEST' && !k.startsWith('VITEST')));

const git = (copy: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=scaffold', '-c', 'user.email=scaffold@test', ...args], { cwd: copy, encoding: 'utf8' });

/**
 * A working copy of the repository: the files git knows (tracked and new, not
 * ignored), the built web apps, and node_modules as links to this checkout's
 * packages. `@atende/*` links point at this checkout's folders, so the copy's
 * plugins share the one kernel the test runs.
 */
function copyRepository(copy: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const rel of files) {
    const from = path.join(REPO, rel);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(copy, rel));
  }
  for (const dir of ['ui-shell', ...fs.readdirSync(path.join(REPO, 'ui-plugins')).map((d) => `ui-plugins/${d}`)]) {
    const dist = path.join(REPO, dir, 'dist');
    if (fs.existsSync(dist)) fs.cpSync(dist, path.join(copy, dir, 'dist'), { recursive: true });
  }
  const modules = path.join(copy, 'node_modules');
  fs.mkdirSync(path.join(modules, '@atende'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(REPO, 'node_modules'))) {
    if (entry !== '@atende') fs.symlinkSync(path.join(REPO, 'node_modules', entry), path.join(modules, entry));
  }
  for (const entry of fs.readdirSync(path.join(REPO, 'node_modules/@atende'))) {
    fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules/@atende', entry)), path.join(modules, '@atende', entry));
  }
  // Workspaces with dependencies of their own (the CLI's commander).
  for (const ws of ['cli', 'core', 'ui-shell']) {
    const own = path.join(REPO, ws, 'node_modules');
    if (fs.existsSync(own)) fs.symlinkSync(own, path.join(copy, ws, 'node_modules'));
  }
}

run('a feature plugin is one folder on each side (scaffold → build → browser)', () => {
  let copy: string;
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let linted: Promise<string>;
  const pages: Page[] = [];

  beforeAll(async () => {
    fs.mkdirSync('/tmp/shots', { recursive: true });
    const laps: string[] = [];
    let last = Date.now();
    const lap = (what: string) => {
      laps.push(`${what} ${((Date.now() - last) / 1000).toFixed(1)} s`);
      last = Date.now();
    };
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-scaffold-'));
    copyRepository(copy);
    git(copy, 'init', '-q');
    git(copy, 'add', '-A');
    git(copy, 'commit', '-q', '-m', 'copy');
    lap('copy');

    // What an author types, in the copy's own CLI.
    const created = await exec(process.execPath, ['cli/bin/atende.js', 'plugin', 'create', 'feature', ID], copy, authorEnv());
    expect(created).toContain(`Plugin ${ID} criado`);
    lap('scaffold');
    // The browser starts while the remote builds (afterAll closes it whatever happens next).
    const browserReady = launchBrowser().then((b) => (browser = b));
    // What `npm install` adds for the two new workspaces.
    fs.symlinkSync(path.join(copy, 'plugins', ID), path.join(copy, 'node_modules/@atende', `plugin-${ID}`));
    fs.symlinkSync(path.join(copy, 'ui-plugins', ID), path.join(copy, 'node_modules/@atende', `ui-plugin-${ID}`));
    // The lint boundary (a plugin imports only the SDKs, its contract and its own folder), checked while the remote builds.
    linted = exec(process.execPath, ['node_modules/eslint/bin/eslint.js', `plugins/${ID}`, `ui-plugins/${ID}`], copy, authorEnv()).then(() => '', (err: Error) => err.message);
    await exec('npm', ['run', 'build', '-w', `ui-plugins/${ID}`], copy, authorEnv());
    expect(fs.existsSync(path.join(copy, 'ui-plugins', ID, 'dist/mf-manifest.json'))).toBe(true);
    lap('build');

    t = await createTestApp({ config: { rootDir: copy } });
    base = await t.baseUrl();
    lap('app');
    await browserReady;
    // The machine is shared: the figures say where the time went when this test is slow.
    console.log(`scaffold e2e: ${laps.join(', ')}`);
  }, 300_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/scaffold-failure-${i}.png` }).catch(() => undefined)));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  });

  async function login(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 820 } });
    const page = await context.newPage();
    pages.push(page);
    page.on('pageerror', (e) => console.log(`[pageerror ${user.email}] ${e.stack}`));
    page.on('console', (m) => {
      if (m.type() === 'error') console.log(`[browser ${user.email}] ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 500) void r.text().then((body) => console.log(`[${r.status()} ${r.url()}] ${body.slice(0, 500)}`), () => undefined);
    });
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 30_000 });
    return page;
  }
  const rows = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

  it('an admin finds the new entry in the rail, creates items, meets its error, changes its setting; a colleague sees it all live', async () => {
    const admin = await t.loginAs('admin');
    const colleague = await t.loginAs('user', admin.tenantId);

    // The colleague has the screen open (and loaded, empty) before anything happens.
    const other = await login(colleague);
    await other.getByRole('navigation').getByRole('link', { name: LABEL }).click();
    await other.getByText('Nenhum item ainda').waitFor({ timeout: 30_000 });
    expect(await other.getByRole('switch', { name: 'Exigir observação em cada item' }).isDisabled()).toBe(true);

    const page = await login(admin);
    const entry = page.getByRole('navigation').getByRole('link', { name: LABEL });
    await entry.waitFor({ timeout: 30_000 });
    await entry.click();
    await page.waitForURL((u) => u.hash === `#/${ID}`);
    await page.getByRole('heading', { name: LABEL, exact: true }).waitFor();

    // Create an item.
    await page.getByRole('button', { name: 'Novo item' }).first().click();
    const form = page.getByRole('form', { name: 'Formulário do item' });
    await form.getByRole('textbox', { name: /^Título/ }).fill('Ligar para o fornecedor');
    await form.getByRole('textbox', { name: /^Observação/ }).fill('Antes das 10h');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(() => rows(page, 'Ligar para o fornecedor').count(), { timeout: 15_000 }).toBe(1);
    // The colleague's screen receives it through the contract's event, without a reload.
    await expect.poll(() => rows(other, 'Ligar para o fornecedor').count(), { timeout: 15_000 }).toBe(1);
    expect(await rows(other, 'Ligar para o fornecedor').innerText()).toContain('Antes das 10h');

    // A title already taken: the plugin's own error, in Portuguese, under the field; nothing stored.
    await page.getByRole('button', { name: 'Novo item' }).first().click();
    await form.getByRole('textbox', { name: /^Título/ }).fill('LIGAR PARA O FORNECEDOR');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await form.getByText('Já existe um item com este título').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: '/tmp/shots/scaffold-error.png' });
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await form.waitFor({ state: 'detached' });

    // The setting: a note becomes required; the colleague's switch follows live.
    await page.getByRole('switch', { name: 'Exigir observação em cada item' }).click({ force: true });
    await page.getByText('Configuração salva').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => other.getByRole('switch', { name: 'Exigir observação em cada item' }).isChecked(), { timeout: 15_000 }).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: `/api/plugins/${ID}/items`, headers: colleague.headers, payload: { title: 'Sem observação' } })).json())
      .toEqual({ error: 'ERR_REQUIRED_FIELD', message: 'O campo observação é obrigatório' });

    await page.getByRole('button', { name: 'Novo item' }).first().click();
    await form.getByRole('textbox', { name: /^Título/ }).fill('Revisar contrato');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await form.getByText('O campo observação é obrigatório').waitFor({ timeout: 15_000 });
    await form.getByRole('textbox', { name: /^Observação/ }).fill('Cláusula de reajuste');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await form.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => rows(other, 'Revisar contrato').count(), { timeout: 15_000 }).toBe(1);
    await page.screenshot({ path: '/tmp/shots/scaffold-screen.png' });
    await other.screenshot({ path: '/tmp/shots/scaffold-colleague.png' });

    const stored = await t.sql.query(`SELECT title, note FROM ${ID}_items WHERE tenant_id = $1 ORDER BY id`, [admin.tenantId]);
    expect(stored.rows).toEqual([{ title: 'Ligar para o fornecedor', note: 'Antes das 10h' }, { title: 'Revisar contrato', note: 'Cláusula de reajuste' }]);
  }, 180_000);

  it('documents its routes, with their schemas, in the OpenAPI document', async () => {
    const admin = await t.loginAs('admin');
    const session = await t.app.inject({ method: 'POST', url: '/api/me/docs-session', headers: admin.headers });
    const cookie = String(session.headers['set-cookie']).split(';')[0]!;
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie } })).json();
    const items = doc.paths[`/api/plugins/${ID}/items`];
    expect(items.get).toMatchObject({ operationId: 'listLembretesItems', tags: [ID] });
    expect(items.post).toMatchObject({ operationId: 'createLembretesItem', requestBody: expect.anything(), responses: { 201: expect.anything() } });
    expect(doc.paths[`/api/plugins/${ID}/items/{id}`].delete).toMatchObject({ operationId: 'deleteLembretesItem', responses: { 204: expect.anything() } });
  });

  it('passes the lint boundary as generated', async () => {
    expect(await linted).toBe('');
  });

  it('wrote nothing outside plugins/<id> and ui-plugins/<id>', () => {
    const status = git(copy, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean);
    expect(status.length).toBeGreaterThan(10);
    const outside = status.filter((line) => !line.startsWith('?? ') || !(line.slice(3).startsWith(`plugins/${ID}/`) || line.slice(3).startsWith(`ui-plugins/${ID}/`)));
    expect(outside).toEqual([]);
  });
});
