import { AppError, type PreparedTemplate, type TemplateSendRequest } from '@atende/core/sdk';
import type { WabaTemplateComponent, WabaTemplateVariables } from './contract.ts';

/**
 * Message templates as Meta lists them (`GET /{waba-id}/message_templates`)
 * and as an agent sends them: which placeholders each component has, the
 * check of the agent's values against them, the `template` object of the
 * Cloud API `/messages` payload, and the text the customer receives.
 */

/** A component as synced from Meta (the contract's schema of what the template list answers). */
export type SyncedComponent = WabaTemplateComponent;

export interface SyncedTemplate {
  name: string;
  language: string;
  status: string;
  components: SyncedComponent[];
}

/** The placeholders a template component needs, in the order the parameters fill them. */
export type TemplateVariables = WabaTemplateVariables;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/**
 * Placeholders of one text: positional ones (`{{1}}`, `{{2}}`…) as 1..n by
 * their highest number, named ones (`{{order_id}}`) in order of first use —
 * the order Meta matches the parameters in.
 */
export function placeholdersOf(text: string | undefined): string[] {
  const seen: string[] = [];
  for (const m of (text ?? '').matchAll(PLACEHOLDER)) if (!seen.includes(m[1]!)) seen.push(m[1]!);
  if (seen.length && seen.every((n) => /^\d+$/.test(n))) {
    const max = Math.max(...seen.map(Number));
    return Array.from({ length: max }, (_, i) => String(i + 1));
  }
  return seen;
}

const componentOf = (t: { components: SyncedComponent[] }, type: string) => t.components.find((c) => c.type?.toUpperCase() === type);

export function variablesOf(t: { components: SyncedComponent[] }): TemplateVariables {
  const header = componentOf(t, 'HEADER');
  const format = (header?.format ?? 'TEXT').toUpperCase();
  const buttons: TemplateVariables['buttons'] = [];
  (componentOf(t, 'BUTTONS')?.buttons ?? []).forEach((b, index) => {
    const kind = b.type?.toUpperCase();
    if (kind === 'URL' && placeholdersOf(b.url).length) buttons.push({ index, subType: 'url', text: b.text ?? '', variables: placeholdersOf(b.url) });
    if (kind === 'COPY_CODE') buttons.push({ index, subType: 'copy_code', text: b.text ?? '', variables: ['code'] });
  });
  return {
    header: format === 'TEXT' ? placeholdersOf(header?.text) : [],
    body: placeholdersOf(componentOf(t, 'BODY')?.text),
    buttons,
    mediaHeader: header && format !== 'TEXT' ? format : null,
  };
}

const fill = (text: string, names: string[], values: string[]) => text.replace(PLACEHOLDER, (whole, name: string) => {
  const i = names.indexOf(name);
  return i >= 0 && values[i] !== undefined ? values[i]! : whole;
});

const refuse = (details: string) => new AppError('ERR_VALIDATION', { details });
const LABEL = { header: 'do cabeçalho', body: 'do corpo' } as const;

/**
 * Checks the agent's values against the synced template and builds what is
 * sent and stored. Meta refuses header and body values with line breaks,
 * tabs or more than four spaces in a row (error 132018): refused here, where
 * the agent can still fix them, rather than after the message is stored.
 */
export function prepare(t: SyncedTemplate, req: TemplateSendRequest): PreparedTemplate {
  if (t.status !== 'APPROVED') throw refuse(`o modelo ${t.name} (${t.language}) não está aprovado pela Meta (situação: ${t.status})`);
  const vars = variablesOf(t);
  if (vars.mediaHeader) throw refuse(`o modelo ${t.name} tem cabeçalho de ${{ IMAGE: 'imagem', VIDEO: 'vídeo', DOCUMENT: 'documento', LOCATION: 'localização' }[vars.mediaHeader] ?? 'mídia'}, que ainda não pode ser enviado pelo atendimento`);
  const given = req.components ?? [];
  const named = (names: string[]) => names.some((n) => !/^\d+$/.test(n));
  const out: Record<string, unknown>[] = [];
  const valuesFor = (part: 'header' | 'body', names: string[]) => {
    const matches = given.filter((c) => c.type === part);
    if (matches.length > 1) throw refuse(`informe as variáveis ${LABEL[part]} uma só vez`);
    const values = matches[0]?.parameters ?? [];
    if (values.length !== names.length) {
      throw refuse(names.length ? `o ${part === 'header' ? 'cabeçalho' : 'corpo'} do modelo ${t.name} pede ${names.length} variáve${names.length === 1 ? 'l' : 'is'} (${names.map((n) => `{{${n}}}`).join(', ')}); foram informadas ${values.length}` : `o ${part === 'header' ? 'cabeçalho' : 'corpo'} do modelo ${t.name} não tem variáveis`);
    }
    values.forEach((v, i) => {
      if (!v.trim()) throw refuse(`preencha a variável {{${names[i]}}} ${LABEL[part]}`);
      if (/[\n\t]| {5,}/.test(v)) throw refuse(`a variável {{${names[i]}}} ${LABEL[part]} não pode ter quebras de linha, tabulações nem mais de quatro espaços seguidos`);
    });
    if (values.length) out.push({ type: part, parameters: values.map((text, i) => ({ type: 'text', text, ...(named(names) ? { parameter_name: names[i] } : {}) })) });
    return values;
  };
  const headerValues = valuesFor('header', vars.header);
  const bodyValues = valuesFor('body', vars.body);
  const buttonValues = new Map<number, string>();
  for (const c of given.filter((x) => x.type === 'button')) {
    const b = vars.buttons.find((x) => x.index === c.index);
    if (!b || (c.subType && c.subType !== b.subType)) throw refuse(`o botão ${(c.index ?? 0) + 1} do modelo ${t.name} não recebe variável`);
    if (buttonValues.has(b.index)) throw refuse(`informe a variável do botão ${b.index + 1} uma só vez`);
    const v = c.parameters[0] ?? '';
    if (c.parameters.length !== 1 || !v.trim()) throw refuse(`o botão "${b.text}" do modelo pede 1 valor`);
    buttonValues.set(b.index, v);
    out.push({ type: 'button', sub_type: b.subType, index: String(b.index), parameters: [b.subType === 'url' ? { type: 'text', text: v } : { type: 'coupon_code', coupon_code: v }] });
  }
  const missing = vars.buttons.find((b) => !buttonValues.has(b.index));
  if (missing) throw refuse(`o botão "${missing.text}" do modelo ${t.name} pede 1 valor`);

  // The text the customer sees: header, body and footer filled in, then the buttons' labels.
  const header = componentOf(t, 'HEADER')?.text;
  const body = componentOf(t, 'BODY')?.text;
  const footer = componentOf(t, 'FOOTER')?.text;
  const labels = (componentOf(t, 'BUTTONS')?.buttons ?? []).map((b) => b.text).filter(Boolean).map((x) => `[${x}]`);
  const text = [header ? fill(header, vars.header, headerValues) : '', body ? fill(body, vars.body, bodyValues) : '', footer ?? '', labels.join(' ')].filter((x) => x.trim()).join('\n\n');
  return { body: text || t.name, template: { name: t.name, language: t.language, components: out } };
}
