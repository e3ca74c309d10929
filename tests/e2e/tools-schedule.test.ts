/**
 * The agent-tool screens in a real browser (Debian Chromium through
 * playwright-core) against a real kernel serving ui-shell/dist and the tool
 * remotes: a message scheduled from /agendamentos reaches the sandbox customer
 * at its minute (the test drives the dispatcher's clock instead of waiting for
 * its 30-second tick), business hours are set and stay saved, the ratings list
 * shows its averages. Screenshots go to /tmp/shots/tools-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { CHROMIUM, chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const TOOLS = ['schedules', 'birthdays', 'farewells', 'ratings', 'business-hours'];
const root = path.join(import.meta.dirname, '../..');
const built = fs.existsSync(path.join(root, 'ui-shell/dist/index.html')) && TOOLS.every((id) => fs.existsSync(path.join(root, `ui-plugins/${id}/dist/mf-manifest.json`)));
const run = chromiumAvailable() && built ? describe : describe.skip;
const TZ = 'America/Sao_Paulo';

/** `dd/MM/yyyy HH:mm` of an instant on the tenant's clock. */
function wall(instant: Date): string {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).formatToParts(instant).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour === '24' ? '00' : p.hour}:${p.minute}`;
}

run('agent tools in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let channelId: number;

  beforeAll(async () => {
    fs.mkdirSync('/tmp/shots', { recursive: true });
    t = await createTestApp({ plugins: [...TOOLS, 'channel-sandbox'] });
    base = await t.baseUrl();
    browser = await launchBrowser().catch(() =>
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] }),
    );
    admin = await t.loginAs('admin');
    await t.sql.query(`UPDATE users SET name = 'Sofia Admin' WHERE id = $1`, [admin.id]);
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'WhatsApp Loja', birthdayMessage: 'Feliz aniversário, {{firstName}}! 🎉', birthdayHour: 9 } });
    expect(ch.statusCode).toBe(201);
    channelId = ch.json().id;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A logged-in page: the real login answer goes where the shell keeps it. */
  async function open(user: TestUser, hash: string): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(200);
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 820 }, timezoneId: TZ });
    await context.addInitScript((s) => window.localStorage.setItem('session', s), JSON.stringify(res.json()));
    const page = await context.newPage();
    await page.goto(`${base}/${hash}`);
    return page;
  }
  const outbox = async () => (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: admin.headers })).json() as { to: string; body: string }[];
  const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots/tools-${name}.png` });

  it('a message scheduled from the screen for the next minute reaches the customer at that minute', async () => {
    const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Maria Cliente', number: '5511999990001' } })).json();
    expect(contact.id).toBeGreaterThan(0);
    const page = await open(admin, '#/agendamentos');
    await page.getByRole('heading', { name: 'Agendamentos' }).waitFor({ timeout: 20_000 });
    await page.getByText('Nenhuma mensagem agendada').waitFor();

    // The next whole minute at least 40 s away, typed on the tenant's clock.
    const minute = new Date(Math.ceil((Date.now() + 40_000) / 60_000) * 60_000);
    await page.getByTestId('schedule-new').first().click();
    const picker = page.getByTestId('schedule-contact');
    await picker.click();
    await picker.fill('Maria');
    await page.getByRole('option', { name: 'Maria Cliente · 5511999990001' }).click();
    await page.getByTestId('schedule-body').fill('Lembrete: sua consulta é amanhã, {{firstName}}.');
    // A past time is refused inline before anything is sent.
    await page.getByTestId('schedule-when').fill(wall(new Date(Date.now() - 3_600_000)).replace(/\D/g, ''));
    await page.getByTestId('schedule-save').click();
    await page.getByText('Escolha uma data e hora futuras').waitFor();
    await page.getByTestId('schedule-when').fill(wall(minute).replace(/\D/g, ''));
    await shot(page, 'schedule-form');
    await page.getByTestId('schedule-save').click();
    await page.getByText('Mensagem agendada').first().waitFor();

    const row = page.getByRole('row').filter({ hasText: 'Maria Cliente' });
    await row.waitFor();
    await expect.poll(() => row.getByTestId('schedule-state').textContent()).toBe('Agendada');
    expect(await row.getByTestId('schedule-date').textContent()).toBe(wall(minute));
    await shot(page, 'schedules');

    // Nothing before its minute…
    expect((await outbox()).some((m) => m.body.startsWith('Lembrete'))).toBe(false);
    expect((await t.dispatchScheduled(new Date(minute.getTime() - 1000))).dispatched).toBe(0);
    // …and at it, the customer gets it with the variable filled.
    await t.dispatchScheduled(minute);
    const sent = await until(async () => (await outbox()).find((m) => m.body.startsWith('Lembrete')), 15_000, 'the scheduled message in the outbox');
    expect(sent).toEqual(expect.objectContaining({ to: '5511999990001', body: 'Lembrete: sua consulta é amanhã, Maria.' }));
    // The screen follows: the row turns to sent without a reload.
    await expect.poll(() => row.getByTestId('schedule-state').textContent(), { timeout: 20_000 }).toBe('Enviada');
    await page.getByTestId('schedule-filter-state').getByText('Agendadas').click();
    await page.getByText('Nenhum agendamento com estes filtros').waitFor();
    await page.getByTestId('schedule-filter-state').getByText('Todas').click();
    await shot(page, 'schedules-sent');
    await page.context().close();
  }, 90_000);

  it('business hours: a closed day and a day with two periods are saved and come back after a reload', async () => {
    const page = await open(admin, '#/horario-atendimento');
    await page.getByRole('heading', { name: 'Horário de atendimento' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('hours-row-1').waitFor();
    // Monday closed; Tuesday 08:00–12:00 and 13:00–18:00.
    await page.getByTestId('hours-type-1').getByText('Fechado').click();
    await page.getByTestId('hours-2-end').fill('12:00');
    await page.getByTestId('hours-2-start2').fill('13:00');
    await page.getByTestId('hours-2-end2').fill('18:00');
    // An overlapping second period is caught on the row before saving.
    await page.getByTestId('hours-3-start2').fill('10:00');
    await page.getByTestId('hours-3-end2').fill('19:00');
    await page.getByText('O 2º período precisa de início e fim, depois do fim do 1º').waitFor();
    expect(await page.getByTestId('hours-save').isDisabled()).toBe(true);
    await page.getByTestId('hours-3-start2').fill('');
    await page.getByTestId('hours-3-end2').fill('');
    await page.getByTestId('hours-save').click();
    await page.getByText('Horários salvos').first().waitFor();
    await page.getByTestId('hours-absence').fill('Olá {{firstName}}! Estamos fora do horário; respondemos a partir das 8h.');
    await page.getByTestId('hours-absence-save').click();
    await page.getByText('Mensagem de ausência salva').first().waitFor();

    await page.reload();
    await page.getByTestId('hours-row-1').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('hours-2-start2').inputValue()).toBe('13:00');
    expect(await page.getByTestId('hours-2-end2').inputValue()).toBe('18:00');
    expect(await page.getByTestId('hours-1-start').isDisabled()).toBe(true);
    expect(await page.getByTestId('hours-absence').inputValue()).toContain('Estamos fora do horário');
    const saved = (await t.app.inject({ method: 'GET', url: '/api/tenants/business-hours', headers: admin.headers })).json();
    expect(saved.businessHours.find((d: { day: number }) => d.day === 1)).toEqual({ day: 1, type: 'C' });
    expect(saved.businessHours.find((d: { day: number }) => d.day === 2)).toEqual({ day: 2, type: 'H', start: '08:00', end: '12:00', start2: '13:00', end2: '18:00' });
    await shot(page, 'business-hours');
    await page.context().close();
  }, 60_000);

  it('the ratings list shows the averages, and configurar saves the request settings', async () => {
    const agents = [await t.loginAs('user', admin.tenantId), await t.loginAs('user', admin.tenantId)];
    await t.sql.query(`UPDATE users SET name = CASE id WHEN $1 THEN 'Ana Atendente' ELSE 'Bruno Suporte' END WHERE id IN ($1, $2)`, [agents[0]!.id, agents[1]!.id]);
    const sim = (from: string, name: string, body: string) => t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: from, name }, body } });
    const rated: [number, string, string, string][] = [[0, '5511911110001', 'Carlos Prado', '5'], [0, '5511911110002', 'Denise Rocha', '4'], [1, '5511911110003', 'Eduardo Lins', '2']];
    for (const [agent, number, name, score] of rated) {
      const ticketId = (await sim(number, name, 'Olá!')).json().ticketId;
      const who = agents[agent]!;
      await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: who.headers, payload: { status: 'open' } });
      await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: who.headers, payload: { status: 'closed', sendRating: true } });
      await sim(number, name, score);
    }
    const page = await open(admin, '#/avaliacoes');
    await page.waitForURL((u) => u.hash === '#/avaliacoes/listar', { timeout: 20_000 });
    await expect.poll(() => page.getByTestId('rating-average').textContent(), { timeout: 20_000 }).toBe('3,67');
    expect(await page.getByTestId('rating-count').textContent()).toBe('3 avaliações');
    expect(await page.getByTestId('rating-by-user').textContent()).toContain('Ana Atendente');
    expect(await page.getByTestId('rating-score').allTextContents()).toEqual(expect.arrayContaining(['5 · Incrível', '4 · Excelente', '2 · Bom']));
    await shot(page, 'ratings');
    // Filtering by a score narrows the list and the average.
    await page.getByTestId('rating-filter-score').click();
    await page.getByRole('option', { name: '2 · Bom' }).click();
    await expect.poll(() => page.getByTestId('rating-average').textContent()).toBe('2,00');

    await page.getByTestId('ratings-tab-config').click();
    await page.waitForURL((u) => u.hash === '#/avaliacoes/configurar');
    await page.getByTestId('rating-attempts').fill('3');
    await page.getByTestId('rating-save').click();
    await page.getByText('Configuração salva').first().waitFor();
    expect((await t.app.inject({ method: 'GET', url: '/api/tenants/rating', headers: admin.headers })).json().maxAttempts).toBe(3);
    await shot(page, 'ratings-config');
    await page.context().close();
  }, 90_000);

  it('birthdays and farewell messages render with data (screenshots)', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, month: '2-digit', day: '2-digit' }).format(new Date());
    const soon = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + 5 * 86_400_000));
    await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Helena Duarte', number: '5511922220001', birthday: `1992-${today}` } });
    await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Igor Matos', number: '5511922220002', birthday: `1980-${soon}` } });
    const page = await open(admin, '#/aniversarios');
    await page.getByRole('heading', { name: 'Aniversários' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('birthday-today').getByText('Helena Duarte').waitFor();
    await page.getByTestId('birthday-upcoming').getByText('Igor Matos').waitFor();
    await page.getByTestId('birthday-send').click();
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await until(async () => (await outbox()).find((m) => m.to === '5511922220001'), 15_000, 'the birthday message');
    await expect.poll(() => page.getByTestId('birthday-today').textContent(), { timeout: 15_000 }).toContain('Enviada');
    await shot(page, 'birthdays');

    await page.goto(`${base}/#/fechamento`);
    await page.getByRole('heading', { name: 'Mensagens de despedida' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('farewell-new').first().click();
    await page.getByTestId('farewell-save').click();
    await page.getByText('A mensagem é obrigatória').waitFor();
    await page.getByTestId('farewell-message').fill('Obrigado pelo contato, {{firstName}}! Seu protocolo é {{protocol}}.');
    await page.getByTestId('farewell-save').click();
    await page.getByRole('row').filter({ hasText: 'Obrigado pelo contato' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Obrigado pelo contato' }).textContent()).toContain('Sofia Admin');
    await shot(page, 'farewells');
    await page.context().close();
  }, 60_000);
});
