import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;

const URL = '/api/plugins/tasks/tasks';
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

beforeAll(async () => {
  t = await createTestApp({ plugins: ['tasks'] });
  tenant = await t.createTenant();
  admin = await t.loginAs('admin', tenant);
  ana = await t.loginAs('user', tenant);
  bruno = await t.loginAs('user', tenant);
});
afterAll(async () => {
  await t?.close();
});

const post = (u: TestUser, payload: object, url = URL) => t.app.inject({ method: 'POST', url, headers: u.headers, payload });
const get = (u: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: u.headers });
const put = (u: TestUser, url: string, payload: object = {}) => t.app.inject({ method: 'PUT', url, headers: u.headers, payload });

describe('tasks', () => {
  it('names the missing required field in the spec words', async () => {
    const noName = await post(ana, { limitDate: inDays(1) });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toEqual({ error: 'ERR_REQUIRED_FIELD', message: 'O campo nome é obrigatório' });
    const noDate = await post(ana, { name: 'Ligar para o cliente' });
    expect(noDate.json()).toEqual({ error: 'ERR_REQUIRED_FIELD', message: 'O campo data limite é obrigatório' });
    expect((await post(ana, { name: 'x', limitDate: 'amanhã' })).json().error).toBe('ERR_INVALID_DATE');
    const badRecurrence = await post(ana, { name: 'x', limitDate: inDays(1), recurrence: 8 });
    expect(badRecurrence.statusCode).toBe(400);
    expect(badRecurrence.json().error).toBe('ERR_VALIDATION');
    expect((await post(ana, { name: 'x', limitDate: inDays(1), priority: 'urgent' })).json().error).toBe('ERR_VALIDATION');
  });

  it('computes delayed from the limit date and filters by status, owner and priority', async () => {
    const late = (await post(ana, { name: 'Enviar proposta', limitDate: inDays(-1), priority: 'high' })).json();
    const soon = (await post(ana, { name: 'Revisar contrato', limitDate: inDays(2), priority: 'low', description: 'cláusula 4' })).json();
    expect(late.status).toBe('delayed');
    expect(soon.status).toBe('pending');
    expect(late.ownerId).toBe(ana.id);
    const ids = async (qs: string) => (await get(ana, `${URL}?${qs}`)).json().map((x: { id: number }) => x.id);
    expect(await ids('status=delayed')).toContain(late.id);
    expect(await ids('status=delayed')).not.toContain(soon.id);
    expect(await ids('status=pending')).toEqual(expect.arrayContaining([soon.id]));
    expect(await ids('status=pending')).not.toContain(late.id);
    expect(await ids('priority=high')).toEqual([late.id]);
    expect(await ids(`ownerId=${ana.id}&priority=low`)).toEqual([soon.id]);
    // Moving the limit date into the future makes it pending again: nothing stored says "delayed".
    expect((await put(ana, `${URL}/${late.id}`, { limitDate: inDays(3) })).json().status).toBe('pending');
  });

  it('finishing a recurring task creates the next occurrence until the repetitions run out', async () => {
    const limit = inDays(1);
    const first = (await post(ana, { name: 'Relatório semanal', limitDate: limit, recurrence: 7, repetitions: 2 })).json();
    expect(first).toMatchObject({ recurrence: 7, repetitions: 2 });
    const f1 = (await put(ana, `${URL}/${first.id}/finish`)).json();
    expect(f1.task.status).toBe('finished');
    expect(f1.next).toMatchObject({ name: 'Relatório semanal', status: 'pending', recurrence: 7, repetitions: 1, previousId: first.id, ownerId: ana.id });
    expect(new Date(f1.next.limitDate).getTime() - new Date(limit).getTime()).toBe(7 * 86_400_000);
    // Finishing twice changes nothing and creates no second copy.
    expect((await put(ana, `${URL}/${first.id}/finish`)).json().next).toBeNull();
    const f2 = (await put(ana, `${URL}/${f1.next.id}/finish`)).json();
    expect(f2.next).toMatchObject({ repetitions: 0 });
    const f3 = (await put(ana, `${URL}/${f2.next.id}/finish`)).json();
    expect(f3.next).toBeNull();
    const series = await t.sql.query(`SELECT count(*)::int AS n FROM tasks_tasks WHERE tenant_id = $1 AND name = 'Relatório semanal'`, [tenant]);
    expect(series.rows[0].n).toBe(3);
    // A task without recurrence just finishes.
    const once = (await post(ana, { name: 'Uma vez', limitDate: inDays(1) })).json();
    expect((await put(ana, `${URL}/${once.id}/finish`)).json().next).toBeNull();
  });

  it('keeps a comments thread', async () => {
    const task = (await post(ana, { name: 'Com comentários', limitDate: inDays(1) })).json();
    expect((await post(ana, {}, `${URL}/${task.id}/comments`)).json()).toEqual({ error: 'ERR_REQUIRED_FIELD', message: 'O campo comentário é obrigatório' });
    expect((await post(ana, { body: 'Cliente pediu retorno à tarde' }, `${URL}/${task.id}/comments`)).statusCode).toBe(201);
    expect((await post(admin, { body: 'Ok, acompanhe' }, `${URL}/${task.id}/comments`)).statusCode).toBe(201);
    const thread = (await get(ana, `${URL}/${task.id}/comments`)).json();
    expect(thread.map((c: { body: string }) => c.body)).toEqual(['Cliente pediu retorno à tarde', 'Ok, acompanhe']);
    expect(thread[1].userId).toBe(admin.id);
    expect((await get(ana, `${URL}/${task.id}`)).json().commentCount).toBe(2);
  });

  it('users see and act on their own tasks; admins on all of the tenant', async () => {
    const given = (await post(admin, { name: 'Tarefa da Ana', limitDate: inDays(1), ownerId: ana.id })).json();
    const mine = (await post(bruno, { name: 'Tarefa do Bruno', limitDate: inDays(1) })).json();
    expect((await get(ana, `${URL}/${given.id}`)).statusCode).toBe(200);
    const anaList = (await get(ana, URL)).json().map((x: { id: number }) => x.id);
    expect(anaList).toContain(given.id);
    expect(anaList).not.toContain(mine.id);
    expect((await get(ana, `${URL}/${mine.id}`)).json().error).toBe('ERR_NOT_FOUND');
    expect((await put(ana, `${URL}/${mine.id}`, { name: 'roubada' })).statusCode).toBe(404);
    expect((await put(ana, `${URL}/${mine.id}/finish`)).statusCode).toBe(404);
    expect((await get(admin, URL)).json().map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([given.id, mine.id]));
    // The owner may finish it, but only its creator or an admin deletes it.
    const del = await t.app.inject({ method: 'DELETE', url: `${URL}/${given.id}`, headers: ana.headers });
    expect(del.json().error).toBe('ERR_NO_PERMISSION');
    expect((await t.app.inject({ method: 'DELETE', url: `${URL}/${mine.id}`, headers: bruno.headers })).statusCode).toBe(204);
  });

  it('refuses owners from another tenant and hides tasks across tenants', async () => {
    const other = await t.loginAs('admin');
    expect((await post(ana, { name: 'x', limitDate: inDays(1), ownerId: other.id })).json().error).toBe('ERR_NO_USER_FOUND');
    const task = (await post(admin, { name: 'Segredo do tenant', limitDate: inDays(1) })).json();
    expect((await get(other, `${URL}/${task.id}`)).json().error).toBe('ERR_NOT_FOUND');
    expect((await get(other, URL)).body).not.toContain('Segredo do tenant');
    expect((await put(other, `${URL}/${task.id}/finish`)).statusCode).toBe(404);
    expect((await get(other, `${URL}/${task.id}/comments`)).statusCode).toBe(404);
  });

  it('follows the tasks menu of the tenant and of the user', async () => {
    const hiddenForUser = await t.loginAs('user', tenant, { menus: { tasks: false } });
    expect((await get(hiddenForUser, URL)).statusCode).toBe(403);
    const noTasksTenant = await t.createTenant({ menus: { tasks: false } });
    const a = await t.loginAs('admin', noTasksTenant);
    expect((await get(a, URL)).statusCode).toBe(403);
  });

  it('tells the owner live, and nobody who may not see the task', async () => {
    const anaSocket = await t.openSocket(ana.token);
    const brunoSocket = await t.openSocket(bruno.token);
    const task = (await post(admin, { name: 'Ao vivo', limitDate: inDays(1), ownerId: ana.id })).json();
    expect((await anaSocket.next((f) => f.event === 'task.created' && f.data.id === task.id)).data.name).toBe('Ao vivo');
    await put(admin, `${URL}/${task.id}`, { priority: 'medium' });
    await anaSocket.next((f) => f.event === 'task.updated' && f.data.id === task.id);
    expect(brunoSocket.frames.some((f) => String(f.event).startsWith('task.') && f.data?.name === 'Ao vivo')).toBe(false);
    // Given to Bruno: Ana's screen drops it, Bruno's gets it.
    await put(admin, `${URL}/${task.id}`, { ownerId: bruno.id });
    await anaSocket.next((f) => f.event === 'task.removed' && f.data.id === task.id);
    await brunoSocket.next((f) => f.event === 'task.updated' && f.data.id === task.id);
  });

  it('disabling the plugin for one tenant removes its menu, remote and routes there only', async () => {
    const otherTenant = await t.createTenant();
    const otherAdmin = await t.loginAs('admin', otherTenant);
    const tenantAdmin = await t.loginAs('admin', await t.createTenant());
    expect((await put(tenantAdmin, '/api/plugins/tasks/enabled', { enabled: false })).statusCode).toBe(200);
    const access = (await get(tenantAdmin, '/api/me/access')).json();
    expect(access.menus.tasks).toBe(false);
    expect(access.routes['/tarefas']).toBeUndefined();
    expect((await get(tenantAdmin, '/api/plugins/ui')).json().map((p: { id: string }) => p.id)).not.toContain('tasks');
    const gone = await get(tenantAdmin, URL);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_ROUTE_NOT_FOUND');
    // The other tenant keeps everything.
    const otherAccess = (await get(otherAdmin, '/api/me/access')).json();
    expect(otherAccess.menus.tasks).toBe(true);
    expect(otherAccess.routes['/tarefas']).toBe('tasks');
    expect((await get(otherAdmin, '/api/plugins/ui')).json().map((p: { id: string }) => p.id)).toContain('tasks');
    expect((await get(otherAdmin, URL)).statusCode).toBe(200);
  });
});
