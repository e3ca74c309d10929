/**
 * Reports in a real browser (Debian Chromium through playwright-core) against
 * a real kernel serving ui-shell/dist and the reports remote: a supervisor
 * opens /relatorios, is told the ticket report needs dates and queues, filters,
 * sees the rows, exports to Excel and downloads the file, read back here.
 * Screenshots go to /tmp/shots/reports-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const root = path.join(import.meta.dirname, '../..');
const built = (p: string) => fs.existsSync(path.join(root, p));
const ready = built('ui-shell/dist/index.html') && built('ui-plugins/reports/dist/mf-manifest.json');
const run = chromiumAvailable() && ready ? describe : describe.skip;

run('reports in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let snapshot: string | undefined;

  /** The built shell and remotes in a private root, so other builds in the checkout cannot swap assets under the page. */
  function snapshotRoot(): string {
    fs.mkdirSync(path.join(root, '.atende-test'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(root, '.atende-test', 'reports-e2e-'));
    fs.symlinkSync(path.join(root, 'plugins'), path.join(dir, 'plugins'));
    fs.cpSync(path.join(root, 'ui-shell/dist'), path.join(dir, 'ui-shell/dist'), { recursive: true });
    for (const id of fs.readdirSync(path.join(root, 'ui-plugins'))) {
      const dist = path.join(root, 'ui-plugins', id, 'dist');
      if (fs.existsSync(dist)) fs.cpSync(dist, path.join(dir, 'ui-plugins', id, 'dist'), { recursive: true });
    }
    return dir;
  }

  beforeAll(async () => {
    snapshot = snapshotRoot();
    t = await createTestApp({ config: { rootDir: snapshot } });
    base = await t.baseUrl();
    fs.mkdirSync('/tmp/shots', { recursive: true });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (snapshot) fs.rmSync(snapshot, { recursive: true, force: true });
  });

  async function login(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    if (process.env.DEBUG_E2E) page.on('console', (m) => console.log('[browser]', m.type(), m.text().slice(0, 300)));
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 15_000 });
    return page;
  }

  it('a supervisor filters the ticket report, sees the rows, exports and downloads the Excel file', async () => {
    const admin = await t.loginAs('admin');
    const sup = await t.loginAs('super', admin.tenantId);
    const tid = admin.tenantId;
    const one = async (text: string, params: unknown[]) => (await t.sql.query(text, params)).rows[0].id as number;
    const sales = await one(`INSERT INTO queues (tenant_id, name) VALUES ($1, 'Vendas') RETURNING id`, [tid]);
    await one(`INSERT INTO queues (tenant_id, name) VALUES ($1, 'Suporte') RETURNING id`, [tid]);
    for (const [name, at] of [['Ana Prado', '2026-11-10T15:00:00Z'], ['Bruno Reis', '2026-11-11T15:00:00Z'], ['Fora do período', '2026-10-01T15:00:00Z']] as const) {
      const c = await one(`INSERT INTO contacts (tenant_id, name, number) VALUES ($1, $2, $3) RETURNING id`, [tid, name, `55119${Math.floor(Math.random() * 1e8)}`]);
      await one(`INSERT INTO tickets (tenant_id, contact_id, queue_id, status, created_at, last_message) VALUES ($1, $2, $3, 'open', $4, 'Olá') RETURNING id`, [tid, c, sales, at]);
    }

    const page = await login(sup);
    await page.goto(`${base}/#/relatorios`);
    await page.waitForURL(/#\/relatorios\/atendimentos-por-parametros/);
    await page.getByRole('button', { name: 'Gerar relatório' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Informe as datas e as filas do relatório' }).count()).toBe(1);

    await page.getByLabel('Data inicial').fill('10/11/2026');
    await page.getByLabel('Data final').fill('12/11/2026');
    await page.getByRole('combobox', { name: 'Filas' }).click();
    await page.getByRole('option', { name: 'Vendas' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Gerar relatório' }).click();
    const table = page.getByRole('table', { name: 'Atendimentos por parâmetros' });
    await table.getByRole('cell', { name: 'Ana Prado' }).waitFor();
    await table.getByRole('cell', { name: 'Bruno Reis' }).waitFor();
    expect(await table.getByRole('cell', { name: 'Fora do período' }).count()).toBe(0);
    await page.getByText('2 registros').waitFor();
    await page.screenshot({ path: '/tmp/shots/reports-tickets.png' });

    await page.getByRole('button', { name: 'Exportar Excel' }).click();
    const downloadButton = page.getByRole('button', { name: 'Baixar Excel' });
    await downloadButton.waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^atendimentos-por-parametros-\d+\.xlsx$/);
    const file = await download.path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const names = wb.worksheets[0]!.getColumn(4).values.slice(1);
    expect(names).toEqual(['Nome', 'Bruno Reis', 'Ana Prado']);
  }, 120_000);
});
