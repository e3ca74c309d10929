import { describe, expect, it } from 'vitest';
import { greetingAt, renderTemplate } from './templates.ts';

describe('template variables', () => {
  const ctx = { contact: { name: 'Maria Souza', email: 'maria@ex.com', number: '5511999990001', businessName: 'Padaria' }, ticket: { protocol: '20261125000001' }, provided: { kanban: 'Novos' }, user: { name: 'Ana', email: 'ana@ex.com' }, now: new Date('2026-11-25T13:00:00Z'), timeZone: 'America/Sao_Paulo' };

  it('fills every variable, the kernel\'s and those plugins provide', () => {
    expect(renderTemplate('{{greeting}}, {{firstName}}! Protocolo {{protocol}} ({{kanban}}) — {{user}} <{{userEmail}}> {{email}} {{phoneNumber}} {{businessName}}', ctx)).toBe(
      'Bom dia, Maria! Protocolo 20261125000001 (Novos) — Ana <ana@ex.com> maria@ex.com 5511999990001 Padaria',
    );
  });

  it('omits protocol and user in birthday messages (providers are told, and leave theirs empty)', () => {
    expect(renderTemplate('Parabéns {{name}}! {{protocol}}{{kanban}}{{user}}', { ...ctx, provided: { kanban: '' }, birthday: true })).toBe('Parabéns Maria Souza! ');
  });

  it('leaves unknown placeholders alone', () => {
    expect(renderTemplate('{{foo}} {{ name }}', ctx)).toBe('{{foo}} Maria Souza');
    // A variable of the spec that no plugin provides (the kanban plugin absent) renders empty.
    expect(renderTemplate('[{{kanban}}]', { ...ctx, provided: {} })).toBe('[]');
  });

  it('one syntax, {{variable}}, with the Portuguese names; single-brace known names saved under the old hint still fill', () => {
    expect(renderTemplate('{{saudação}}, {{primeiroNome}}! Protocolo {{protocolo}} — {{Atendente}}, {{nome}}', ctx)).toBe('Bom dia, Maria! Protocolo 20261125000001 — Ana, Maria Souza');
    expect(renderTemplate('Olá {nome}, seu protocolo é {protocolo}.', ctx)).toBe('Olá Maria Souza, seu protocolo é 20261125000001.');
    // Braces that are not a variable are the customer's text.
    expect(renderTemplate('{"a": 1} {preço} {{{x}}}', ctx)).toBe('{"a": 1} {preço} {{{x}}}');
  });

  it('greets by the tenant time of day', () => {
    expect(greetingAt(new Date('2026-11-25T16:00:00Z'), 'America/Sao_Paulo')).toBe('Boa tarde');
    expect(greetingAt(new Date('2026-11-25T23:30:00Z'), 'America/Sao_Paulo')).toBe('Boa noite');
  });
});
