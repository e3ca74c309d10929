import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAIN_ROUTES, PUBLIC_ROUTES, STANDALONE_ROUTES, allRoutes, pathFor } from './routes.tsx';

const paths = () => allRoutes().map((r) => r.path);

/** The paths the remotes declare (`path: '/…'` in each `ui-plugins/<id>/src/index.tsx`). */
function remotePaths(): string[] {
  const dir = fileURLToPath(new URL('../../ui-plugins/', import.meta.url));
  return readdirSync(dir)
    .map((id) => `${dir}${id}/src/index.tsx`)
    .filter((f) => existsSync(f))
    .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\bpath: '(\/[^']*)'/g)].map((m) => m[1]!))
    // A rail entry or a settings tab repeats the path of a route the remote declares.
    .filter((p, i, all) => all.indexOf(p) === i);
}

describe('route table', () => {
  it('has unique paths and names', () => {
    const names = allRoutes().map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(paths()).size).toBe(paths().length);
  });

  it('every path it declares, and every path a remote declares, is one of the spec (core.md §2, administration.md §2), declared once', () => {
    const top = ['/home', '/tenants', '/tenantsPk', '/tenantsQueue', '/notificacao', '/terminal', '/customizar', '/atualizar',
      '/painel-atendimentos', '/sessoes', '/sessoestenants', '/pagamentostenants', '/contatos', '/usuarios', '/usuariotenants',
      '/auto-resposta', '/mensagens-rapidas', '/filas', '/planos', '/assinatura', '/tenantApi', '/equipes', '/kanban', '/tarefas',
      '/notas', '/lanes', '/configuracoes', '/configuracoesTenant', '/massa', '/grupo', '/etiquetas', '/monitor', '/agendamentos',
      '/aniversarios', '/fechamento', '/protocolos', '/wavoip', '/avaliacoes', '/campanhas', '/campanhas/:campanhaId',
      '/horario-atendimento', '/api-service', '/chat-flow', '/chat-flow/builder', '/configuracoesbloqueio', '/chat-privado',
      '/relatorios', '/atendimento', '/atendimento/:ticketId', '/atendimento/contatos', '/chats', '/login', '/signup', '/reset/:token'];
    const children: Record<string, string[]> = {
      '/kanban': ['kanbans', 'tags'],
      '/configuracoes': ['geral', 'webhooks', 'typebot', 'dialogflow', 'chat-gpt', 'lm', 'ollama', 'grok', 'gemini', 'deepseek', 'qwen',
        'claude', 'n8n', 'dify', 'lanes', 'motivos', 'meta', 'variaveis', 'sms', 'hub', 'wuzapi', 'evolution', 'smtp', 'pagamentos', 'sessoes'],
      '/configuracoesTenant': ['smtp-tenant'],
      '/massa': ['texto', 'textovariavel', 'sms', 'template', 'template-variavel'],
      '/grupo': ['banlist', 'wordlist', 'saudacao', 'despedida', 'massagrupos', 'massagrupos2', 'massausuarios'],
      '/avaliacoes': ['listar', 'configurar'],
      '/relatorios': ['estatisticas-atendimentos-usuarios', 'lista-contatos', 'contatos-por-etiquetas', 'contatos-por-estado',
        'contatos-por-kanban', 'contatos-por-carteira', 'atendimentos-por-parametros'],
    };
    const spec = new Set([...top, ...Object.entries(children).flatMap(([p, cs]) => cs.map((c) => `${p}/${c}`))]);
    const declared = [...paths(), ...remotePaths()];
    expect(declared.filter((p) => !spec.has(p))).toEqual([]);
    expect(declared.filter((p, i) => declared.indexOf(p) !== i)).toEqual([]);
    // The spec's screens still without one are listed for whoever builds them next (a 404 until then, never a placeholder).
    const missing = [...spec].filter((p) => !declared.includes(p));
    if (missing.length) console.info(`spec routes without a screen yet (${missing.length}): ${missing.join(' ')}`);
  });

  it('keeps the spec route names', () => {
    expect(pathFor('home-dashboard')).toBe('/home');
    expect(pathFor('chat', { ticketId: 12 })).toBe('/atendimento/12');
    expect(pathFor('atendimento')).toBe('/atendimento');
    expect(pathFor('chat-empty')).toBe('/chats');
  });

  it('guards every logged-in route with a menu key and leaves public ones open', () => {
    const guarded = [...MAIN_ROUTES, ...STANDALONE_ROUTES].flatMap((r) => [r, ...(r.children ?? [])]);
    expect(guarded.filter((r) => !r.menu).map((r) => r.path)).toEqual([]);
    expect(PUBLIC_ROUTES.every((r) => !r.menu)).toBe(true);
  });
});
