import { describe, expect, it } from 'vitest';
import type { AccessInfo } from '@atende/ui-shell/sdk';
import { allRoutes, type RouteDef } from '../routes.tsx';
import { deniedElsewhere, isDenied } from './guard.ts';

/** The kanban remote declares its tags view under the kanban menu, with the spec's name 'tags'. */
const KANBAN_ROUTES: RouteDef[] = [
  { path: '/kanban/tags', name: 'tags', menu: 'kanban' },
  { path: '/kanban/kanbans', name: 'kanbans', menu: 'kanban' },
];
const route = (path: string) => [...allRoutes(), ...KANBAN_ROUTES].find((r) => r.path === path)!;
/** An agent: kanban visible, the admin-only menus (tags, queues) hidden. */
const agent = { superadmin: false, menus: { kanban: true, tags: false, queues: false }, routes: {} } as unknown as AccessInfo;

describe('route guard', () => {
  it("lets an agent open the kanban's tags view although the tags admin menu is hidden for them", () => {
    expect(isDenied(route('/kanban/tags'), agent)).toBe(false);
    expect(isDenied(route('/kanban/kanbans'), agent)).toBe(false);
  });

  it('refuses the routes whose menu is hidden', () => {
    expect(isDenied(route('/etiquetas'), agent)).toBe(true);
    expect(isDenied(route('/filas'), agent)).toBe(true);
  });

  it('lets the superadmin through everything', () => {
    expect(isDenied(route('/etiquetas'), { ...agent, superadmin: true } as AccessInfo)).toBe(false);
  });

  it("sends a user to /contatos from a screen of a remote not offered to them, when the server's route map guards it", () => {
    const noKanban = { superadmin: false, menus: { kanban: false, tasks: true }, routes: { '/kanban': 'kanban', '/tarefas': 'tasks' } } as unknown as AccessInfo;
    for (const path of ['/kanban', '/kanban/kanbans']) {
      const answer = deniedElsewhere(path, noKanban);
      expect(answer?.status).toBe(302);
      expect(answer?.headers.get('Location')).toBe('/contatos');
    }
    expect(deniedElsewhere('/tarefas', noKanban)).toBeUndefined();
    expect(deniedElsewhere('/nada-aqui', noKanban)).toBeUndefined();
    expect(deniedElsewhere('/kanban', { ...noKanban, superadmin: true } as AccessInfo)).toBeUndefined();
  });
});
