import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let sup: TestUser;
let agent: TestUser;

const URL = '/api/plugins/teams/teams';

beforeAll(async () => {
  t = await createTestApp({ plugins: ['teams'] });
  tenant = await t.createTenant();
  admin = await t.loginAs('admin', tenant);
  sup = await t.loginAs('super', tenant);
  agent = await t.loginAs('user', tenant);
});
afterAll(async () => {
  await t?.close();
});

const call = (u: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url, headers: u.headers, payload });

describe('teams', () => {
  it('creates a team with members of the tenant and edits it', async () => {
    const res = await call(admin, 'POST', URL, { name: 'Suporte N1', userIds: [agent.id, sup.id] });
    expect(res.statusCode).toBe(201);
    const team = res.json();
    expect(team).toMatchObject({ name: 'Suporte N1', active: true });
    expect(team.users.map((u: { id: number }) => u.id).sort()).toEqual([agent.id, sup.id].sort());
    const edited = (await call(sup, 'PUT', `${URL}/${team.id}`, { active: false, userIds: [agent.id] })).json();
    expect(edited).toMatchObject({ name: 'Suporte N1', active: false });
    expect(edited.users.map((u: { id: number }) => u.id)).toEqual([agent.id]);
    // The published view other plugins read follows.
    const view = await t.sql.query('SELECT team_id, team_name, team_active, user_id FROM teams_memberships WHERE tenant_id = $1', [tenant]);
    expect(view.rows).toEqual([{ team_id: team.id, team_name: 'Suporte N1', team_active: false, user_id: agent.id }]);
    expect((await call(admin, 'DELETE', `${URL}/${team.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', URL)).json()).toEqual([]);
  });

  it('refuses a missing name, a duplicate name and a user of another tenant', async () => {
    expect((await call(admin, 'POST', URL, { userIds: [] })).json()).toEqual({ error: 'ERR_REQUIRED_FIELD', message: 'O campo nome é obrigatório' });
    await call(admin, 'POST', URL, { name: 'Vendas' });
    const dup = await call(admin, 'POST', URL, { name: 'vendas' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'ERR_TEAM_EXISTS', message: 'Já existe uma equipe com este nome' });
    const stranger = await t.loginAs('user');
    const res = await call(admin, 'POST', URL, { name: 'Mista', userIds: [agent.id, stranger.id] });
    expect(res.json().error).toBe('ERR_NO_USER_FOUND');
    expect((await t.sql.query(`SELECT 1 FROM teams_teams WHERE name = 'Mista'`)).rowCount).toBe(0);
    expect((await call(admin, 'POST', URL, { name: 'x', extra: 1 })).json().error).toBe('ERR_VALIDATION');
  });

  it('is for supervisors and admins only, and never crosses tenants', async () => {
    expect((await call(agent, 'GET', URL)).statusCode).toBe(403);
    expect((await call(agent, 'POST', URL, { name: 'Agentes' })).statusCode).toBe(403);
    const team = (await call(admin, 'POST', URL, { name: 'Financeiro', userIds: [agent.id] })).json();
    const other = await t.loginAs('admin');
    expect((await call(other, 'GET', URL)).body).not.toContain('Financeiro');
    expect((await call(other, 'PUT', `${URL}/${team.id}`, { name: 'tomada' })).json().error).toBe('ERR_NOT_FOUND');
    expect((await call(other, 'DELETE', `${URL}/${team.id}`)).statusCode).toBe(404);
    const users = (await call(other, 'GET', '/api/plugins/teams/users')).json();
    expect(users.map((u: { id: number }) => u.id)).not.toContain(agent.id);
    // The picker names colleagues; their e-mail addresses stay with the users screen.
    expect(JSON.stringify(users)).not.toContain('@');
    const noTeamsTenant = await t.loginAs('admin', await t.createTenant({ menus: { teams: false } }));
    expect((await call(noTeamsTenant, 'GET', URL)).statusCode).toBe(403);
  });
});
