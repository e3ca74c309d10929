import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';
import { PNG_BYTES, filesUnder, multipartFile } from './test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, payload: payload as never });

describe('queues', () => {
  it('every user lists them; only the queues menu creates, and names are unique per tenant ignoring case', async () => {
    const sup = await t.loginAs('super');
    const agent = await t.loginAs('user', sup.tenantId);
    const socket = await t.openSocket(agent.token);
    await socket.next((f) => f.event === 'hello');

    const refused = await call(agent, 'POST', '/api/queues', { name: 'Vendas' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');

    const created = await call(sup, 'POST', '/api/queues', { name: 'Vendas', color: '#12AB34' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Vendas', color: '#12AB34', greetingMessage: null });
    const event = await socket.next((f) => f.event === 'queue.created');
    expect(event.data.id).toBe(created.json().id);

    const dup = await call(sup, 'POST', '/api/queues', { name: '  vendas ' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_QUEUE_EXISTS');

    const list = await call(agent, 'GET', '/api/queues');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((q: { name: string }) => q.name)).toEqual(['Vendas']);

    const badColor = await call(sup, 'POST', '/api/queues', { name: 'Suporte', color: 'red' });
    expect(badColor.statusCode).toBe(400);
    expect(badColor.json().error).toBe('ERR_VALIDATION');
  });

  it('updates and deletes, publishing queue.updated and queue.deleted; a renamed clash is refused', async () => {
    const admin = await t.loginAs('admin');
    const socket = await t.openSocket(admin.token);
    const a = (await call(admin, 'POST', '/api/queues', { name: 'Financeiro' })).json();
    const b = (await call(admin, 'POST', '/api/queues', { name: 'Cobrança' })).json();
    const clash = await call(admin, 'PUT', `/api/queues/${b.id}`, { name: 'FINANCEIRO' });
    expect(clash.json().error).toBe('ERR_QUEUE_EXISTS');
    const upd = await call(admin, 'PUT', `/api/queues/${a.id}`, { name: 'Financeiro 2', greetingMessage: 'Olá!' });
    expect(upd.json()).toMatchObject({ name: 'Financeiro 2', greetingMessage: 'Olá!' });
    expect((await socket.next((f) => f.event === 'queue.updated')).data.name).toBe('Financeiro 2');
    const del = await call(admin, 'DELETE', `/api/queues/${a.id}`);
    expect(del.statusCode).toBe(204);
    expect((await socket.next((f) => f.event === 'queue.deleted')).data.id).toBe(a.id);
    expect((await call(admin, 'GET', '/api/queues')).json().map((q: { id: number }) => q.id)).toEqual([b.id]);
  });

  it('another tenant cannot see, change or delete a queue (404 like a missing one)', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const q = (await call(a, 'POST', '/api/queues', { name: 'Privada' })).json();
    expect((await call(b, 'GET', '/api/queues')).json()).toEqual([]);
    const put = await call(b, 'PUT', `/api/queues/${q.id}`, { name: 'Roubada' });
    expect(put.statusCode).toBe(404);
    expect(put.json().error).toBe('ERR_NOT_FOUND');
    expect((await call(b, 'DELETE', `/api/queues/${q.id}`)).statusCode).toBe(404);
    expect((await call(b, 'PUT', `/api/queues/999999`, { name: 'x' })).json().error).toBe('ERR_NOT_FOUND');
    expect((await call(a, 'GET', '/api/queues')).json()).toMatchObject([{ id: q.id, name: 'Privada' }]);
    // The same name is free in the other tenant.
    expect((await call(b, 'POST', '/api/queues', { name: 'Privada' })).statusCode).toBe(201);
  });
});

describe('tags', () => {
  it('every user lists them; writing needs the tags menu (a per-user toggle can take it away)', async () => {
    const sup = await t.loginAs('super');
    const agent = await t.loginAs('user', sup.tenantId);
    const noTags = await t.loginAs('super', sup.tenantId, { menus: { tags: false } });
    expect((await call(agent, 'POST', '/api/tags', { name: 'VIP' })).json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(noTags, 'POST', '/api/tags', { name: 'VIP' })).json().error).toBe('ERR_NO_PERMISSION');
    const created = await call(sup, 'POST', '/api/tags', { name: 'VIP', color: '#FF0000' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'VIP', color: '#FF0000', active: true });
    await call(sup, 'POST', '/api/tags', { name: 'Antigo', active: false });
    expect((await call(sup, 'POST', '/api/tags', { name: 'vip' })).json().error).toBe('ERR_TAG_EXISTS');
    const all = (await call(agent, 'GET', '/api/tags')).json();
    expect(all.map((x: { name: string }) => x.name)).toEqual(['Antigo', 'VIP']);
    const active = (await call(agent, 'GET', '/api/tags?active=true')).json();
    expect(active.map((x: { name: string }) => x.name)).toEqual(['VIP']);
  });

  it('updates (deactivate) and deletes with events; another tenant gets 404 and changes nothing', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const socket = await t.openSocket(a.token);
    const tag = (await call(a, 'POST', '/api/tags', { name: 'Lead' })).json();
    expect((await socket.next((f) => f.event === 'tag.created')).data.name).toBe('Lead');
    expect((await call(b, 'PUT', `/api/tags/${tag.id}`, { active: false })).statusCode).toBe(404);
    expect((await call(b, 'DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(404);
    expect((await call(b, 'GET', '/api/tags')).json()).toEqual([]);
    const upd = await call(a, 'PUT', `/api/tags/${tag.id}`, { active: false, color: '#000' });
    expect(upd.json()).toMatchObject({ active: false, color: '#000' });
    expect((await socket.next((f) => f.event === 'tag.updated')).data.active).toBe(false);
    expect((await call(a, 'DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(204);
    expect((await socket.next((f) => f.event === 'tag.deleted')).data.id).toBe(tag.id);
  });
});

describe('quick messages', () => {
  it('agents list only active ones; the menu holder lists all; keys are unique ignoring case and have no spaces', async () => {
    const sup = await t.loginAs('super');
    const agent = await t.loginAs('user', sup.tenantId);
    expect((await call(agent, 'POST', '/api/quick-messages', { key: 'oi', message: 'Olá!' })).json().error).toBe('ERR_NO_PERMISSION');
    const created = await call(sup, 'POST', '/api/quick-messages', { key: 'oi', message: 'Olá! Como posso ajudar?', asAudio: false });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ key: 'oi', message: 'Olá! Como posso ajudar?', asAudio: false, active: true, mediaUrl: null });
    await call(sup, 'POST', '/api/quick-messages', { key: 'velho', message: 'desativada', active: false });
    expect((await call(sup, 'POST', '/api/quick-messages', { key: 'OI', message: 'x' })).json().error).toBe('ERR_QUICK_MESSAGE_KEY_EXISTS');
    const spaced = await call(sup, 'POST', '/api/quick-messages', { key: 'bom dia', message: 'x' });
    expect(spaced.statusCode).toBe(400);
    expect(spaced.json().error).toBe('ERR_VALIDATION');
    const empty = await call(sup, 'POST', '/api/quick-messages', { key: 'vazio', message: '   ' });
    expect(empty.json().error).toBe('ERR_VALIDATION');

    expect((await call(agent, 'GET', '/api/quick-messages')).json().map((q: { key: string }) => q.key)).toEqual(['oi']);
    expect((await call(agent, 'GET', '/api/quick-messages?all=true')).json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(sup, 'GET', '/api/quick-messages?all=true')).json().map((q: { key: string }) => q.key)).toEqual(['oi', 'velho']);
  });

  it('resolves /key by the slash rule, for any agent, only among active quick messages of the tenant', async () => {
    const sup = await t.loginAs('super');
    const agent = await t.loginAs('user', sup.tenantId);
    const other = await t.loginAs('super');
    for (const [key, active] of [['bomdia', true], ['boa', true], ['boatarde', true], ['inativa', false]] as const)
      await call(sup, 'POST', '/api/quick-messages', { key, message: `texto ${key}`, active });
    await call(other, 'POST', '/api/quick-messages', { key: 'outrotenant', message: 'segredo' });

    const resolve = (text: string, who = agent) => call(who, 'GET', `/api/quick-messages/resolve?text=${encodeURIComponent(text)}`);
    expect((await resolve('/bom')).json()).toMatchObject({ key: 'bomdia', message: 'texto bomdia' });
    expect((await resolve('/boa')).json().key).toBe('boa');
    expect((await resolve('/BOAT')).json().key).toBe('boatarde');

    const ambiguous = await resolve('/bo');
    expect(ambiguous.statusCode).toBe(409);
    expect(ambiguous.json().error).toBe('ERR_QUICK_MESSAGE_AMBIGUOUS');
    expect(ambiguous.json().candidates.map((c: { key: string }) => c.key)).toEqual(['boa', 'boatarde', 'bomdia']);

    const none = await resolve('/inativa');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('ERR_QUICK_MESSAGE_NOT_FOUND');
    expect((await resolve('/outrotenant')).json().error).toBe('ERR_QUICK_MESSAGE_NOT_FOUND');

    const empty = await resolve('/');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'ERR_INVALID_MESSAGE', message: 'Mensagem inválida' });
    expect((await call(agent, 'GET', '/api/quick-messages/resolve')).json().error).toBe('ERR_INVALID_MESSAGE');
    // A LIKE wildcard in the shortcut matches literally.
    expect((await resolve('/%')).json().error).toBe('ERR_QUICK_MESSAGE_NOT_FOUND');
  });

  it('updates and deletes with events; another tenant gets 404 and changes nothing', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const socket = await t.openSocket(a.token);
    const q = (await call(a, 'POST', '/api/quick-messages', { key: 'pix', message: 'Chave pix: 123' })).json();
    expect((await socket.next((f) => f.event === 'quickMessage.created')).data.key).toBe('pix');
    expect((await call(b, 'PUT', `/api/quick-messages/${q.id}`, { message: 'hack' })).statusCode).toBe(404);
    expect((await call(b, 'DELETE', `/api/quick-messages/${q.id}`)).statusCode).toBe(404);
    expect((await call(b, 'DELETE', `/api/quick-messages/${q.id}/media`)).statusCode).toBe(404);
    expect((await call(b, 'GET', '/api/quick-messages?all=true')).json()).toEqual([]);
    const upd = await call(a, 'PUT', `/api/quick-messages/${q.id}`, { asAudio: true, mediaUrl: 'https://cdn.exemplo.com/audio.ogg', mediaName: 'audio.ogg' });
    expect(upd.json()).toMatchObject({ message: 'Chave pix: 123', asAudio: true, mediaUrl: 'https://cdn.exemplo.com/audio.ogg', mediaType: 'audio/ogg' });
    expect((await socket.next((f) => f.event === 'quickMessage.updated')).data.asAudio).toBe(true);
    const local = await call(a, 'PUT', `/api/quick-messages/${q.id}`, { mediaUrl: '/media/1/x.png?s=abc' });
    expect(local.json().error).toBe('ERR_VALIDATION');
    expect((await call(a, 'DELETE', `/api/quick-messages/${q.id}`)).statusCode).toBe(204);
    expect((await socket.next((f) => f.event === 'quickMessage.deleted')).data.id).toBe(q.id);
  });

  it('stores an allowed media file under the tenant folder and serves it; replacing or deleting removes the old file', async () => {
    const admin = await t.loginAs('admin');
    const dir = path.join(t.app.kernel.config.dataDir, 'media', String(admin.tenantId));
    const q = (await call(admin, 'POST', '/api/quick-messages', { key: 'catalogo', message: 'Nosso catálogo' })).json();
    const up = await t.app.inject({ method: 'POST', url: `/api/quick-messages/${q.id}/media`, ...withAuth(admin, multipartFile('catálogo.png', 'image/png', PNG_BYTES)) });
    expect(up.statusCode).toBe(200);
    const body = up.json();
    expect(body).toMatchObject({ mediaName: 'catálogo.png', mediaType: 'image/png' });
    expect(body.mediaUrl).toMatch(/^\/media\//);
    expect(filesUnder(dir)).toHaveLength(1);
    const served = await t.app.inject({ method: 'GET', url: body.mediaUrl });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG_BYTES)).toBe(true);

    const pdf = Buffer.from('%PDF-1.4\n% fake but well-formed header\n');
    const again = await t.app.inject({ method: 'POST', url: `/api/quick-messages/${q.id}/media`, ...withAuth(admin, multipartFile('tabela.pdf', 'application/pdf', pdf)) });
    expect(again.json().mediaName).toBe('tabela.pdf');
    const files = filesUnder(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/tabela\.pdf$/);

    const cleared = await call(admin, 'DELETE', `/api/quick-messages/${q.id}/media`);
    expect(cleared.json()).toMatchObject({ mediaUrl: null, mediaName: null });
    expect(filesUnder(dir)).toHaveLength(0);
  });

  it('refuses a disallowed type, a disguised file and a file over 16 MB, storing nothing', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const other = await t.loginAs('admin');
    const dir = path.join(t.app.kernel.config.dataDir, 'media', String(admin.tenantId));
    const q = (await call(admin, 'POST', '/api/quick-messages', { key: 'arquivo', message: 'segue' })).json();
    const upload = (who: TestUser, name: string, type: string, content: Buffer, id = q.id) =>
      t.app.inject({ method: 'POST', url: `/api/quick-messages/${id}/media`, ...withAuth(who, multipartFile(name, type, content)) });

    const exe = await upload(admin, 'setup.exe', 'application/x-msdownload', Buffer.from('MZ\x90\x00', 'latin1'));
    expect(exe.statusCode).toBe(400);
    expect(exe.json().error).toBe('ERR_FILE_REJECTED');
    const disguised = await upload(admin, 'foto.png', 'image/png', Buffer.from('MZ\x90\x00 not an image', 'latin1'));
    expect(disguised.json().error).toBe('ERR_FILE_REJECTED');
    const big = Buffer.concat([PNG_BYTES, Buffer.alloc(16 * 1024 * 1024 + 1)]);
    const tooLarge = await upload(admin, 'grande.png', 'image/png', big);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toBe('ERR_FILE_TOO_LARGE');
    expect(filesUnder(dir)).toEqual([]);

    expect((await upload(agent, 'ok.png', 'image/png', PNG_BYTES)).json().error).toBe('ERR_NO_PERMISSION');
    const foreign = await upload(other, 'ok.png', 'image/png', PNG_BYTES);
    expect(foreign.statusCode).toBe(404);
    expect(filesUnder(path.join(t.app.kernel.config.dataDir, 'media', String(other.tenantId)))).toEqual([]);
    expect((await call(admin, 'GET', '/api/quick-messages?all=true')).json()[0].mediaUrl).toBeNull();
  });
});

function withAuth(who: TestUser, mp: ReturnType<typeof multipartFile>) {
  return { payload: mp.payload, headers: { ...mp.headers, ...who.headers } };
}
