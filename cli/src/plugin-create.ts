import fs from 'node:fs';
import path from 'node:path';
import { CliError, type CliContext } from './context.ts';

/**
 * `atende plugin create <kind> <name>`: writes a new plugin from the
 * templates in `cli/templates/<kind>/` — the server part in
 * `plugins/<id>` and its UI remote in `ui-plugins/<id>` — so an author starts
 * from code that already passes its tests (docs/plugin-authoring.md):
 *
 * - `feature`: a plugin with its own screen — a contract (schemas, an error
 *   code in every language, events), a table with its migration, typed routes,
 *   a per-tenant setting, a menu key with its toggles and a test; a remote
 *   with a route, a rail entry, a list-and-create screen following the
 *   events live, and its strings in every language;
 * - `tool`: an agent tool with its own table, typed routes and test, and a
 *   remote that shows it in the ticket screen's side panel;
 * - `channel`: `definePlugin` with a `ChannelAdapter` for a webhook provider,
 *   a local fake of that provider and the conformance kit run against it, and
 *   a remote with the provider fields of the `/sessoes` channel dialog.
 *
 * Templates are plain files ending in `.tpl`; `__ID__`, `__TYPE__`,
 * `__LABEL__`, `__TABLE__`, `__EVENT__`, `__KEY__`, `__CODE__` and
 * `__PASCAL__` in their paths and text are replaced. Nothing is written when
 * the name is bad or the plugin exists, and nothing outside the two folders.
 */

export const PLUGIN_KINDS = ['feature', 'tool', 'channel'] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

const TEMPLATES = path.resolve(import.meta.dirname, '..', 'templates');
const INSTALL_ROOT = path.resolve(import.meta.dirname, '..', '..');
const NAME_RE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Folder names under plugins/ that are not plugins, and prefixes that name another kind. */
const RESERVED = new Set(['core', 'sdk', 'testing', 'node-modules', 'src', 'dist', 'channel', 'channels']);
const KIND_PREFIXES = ['channel-', 'ai-', 'bot-'];

export interface PluginNames {
  /** The plugin id and folder name (`channel-foo`, `lembretes`). */
  id: string;
  /** The channel type the adapter registers (`foo`); for a tool, the id. */
  type: string;
  /** Words for people (`Foo`, `Lembretes Rapidos`). */
  label: string;
  /** snake_case prefix of the plugin's tables (`lembretes_rapidos`). */
  table: string;
  /** snake_case aggregate of its events (`lembretes_rapidos` → `lembretes_rapidos.item_created`). */
  event: string;
  /** camelCase menu key (`lembretesRapidos`). */
  key: string;
  /** UPPER_SNAKE part of its error codes (`LEMBRETES_RAPIDOS` → `ERR_LEMBRETES_RAPIDOS_ITEM_EXISTS`). */
  code: string;
  /** PascalCase part of its entity names and operation ids (`LembretesRapidos` → `listLembretesRapidosItems`). */
  pascal: string;
}

/** Checks a name and derives the plugin's names from it; throws a one-line CliError when it is not usable. */
export function pluginNames(kind: string, rawName: string): PluginNames {
  if (!(PLUGIN_KINDS as readonly string[]).includes(kind)) throw new CliError(`tipo de plugin desconhecido '${kind}': use ${PLUGIN_KINDS.join(', ')}`);
  const name = rawName.trim();
  const base = kind === 'channel' && name.startsWith('channel-') ? name.slice('channel-'.length) : name;
  if (!NAME_RE.test(base) || base.length > 40) throw new CliError(`nome inválido '${rawName}': use letras minúsculas, números e hífens, começando por letra (ex.: minha-loja)`);
  if (RESERVED.has(base)) throw new CliError(`nome reservado '${rawName}': escolha outro`);
  if (kind !== 'channel' && KIND_PREFIXES.some((p) => base.startsWith(p))) throw new CliError(`o nome '${rawName}' indica outro tipo de plugin: para um canal use 'atende plugin create channel ${base.replace(/^channel-/, '')}'`);
  const id = kind === 'channel' ? `channel-${base}` : base;
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const words = id.split('-');
  const table = id.replace(/-/g, '_');
  return {
    id,
    type: base,
    label: base.split('-').map(capital).join(' '),
    table,
    event: table,
    key: words.map((w, i) => (i === 0 ? w : capital(w))).join(''),
    code: table.toUpperCase(),
    pascal: words.map(capital).join(''),
  };
}

const PLACEHOLDERS: Array<[string, keyof PluginNames]> = [
  ['__ID__', 'id'], ['__TYPE__', 'type'], ['__LABEL__', 'label'], ['__TABLE__', 'table'], ['__EVENT__', 'event'], ['__KEY__', 'key'], ['__CODE__', 'code'], ['__PASCAL__', 'pascal'],
];

function fill(text: string, n: PluginNames): string {
  return PLACEHOLDERS.reduce((out, [mark, name]) => out.replaceAll(mark, n[name]), text);
}

/** Every template file under `dir`, as paths relative to it. */
function listTemplates(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const ent of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, ent.name);
      if (ent.isDirectory()) walk(r);
      else if (ent.name.endsWith('.tpl')) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/** A folder that already holds a plugin (an empty workspace with only package.json is not one yet). */
function occupied(dir: string): boolean {
  if (!fs.existsSync(dir)) return false;
  return fs.readdirSync(dir).some((f) => f !== 'package.json');
}

export interface PluginCreateOptions {
  /** The install to write into (default: the one this CLI belongs to). */
  dir?: string;
}

/** Writes the plugin and returns the files written, relative to the install. */
export function createPlugin(kind: string, name: string, opts: PluginCreateOptions = {}): { names: PluginNames; files: string[] } {
  const names = pluginNames(kind, name);
  const root = path.resolve(opts.dir ?? INSTALL_ROOT);
  if (!fs.existsSync(path.join(root, 'plugins'))) throw new CliError(`${root} não parece uma instalação do Atende (falta a pasta plugins/); use --dir`);
  const targets = { plugin: path.join(root, 'plugins', names.id), ui: path.join(root, 'ui-plugins', names.id) };
  for (const [part, dir] of Object.entries(targets)) {
    if (occupied(dir)) throw new CliError(`${part === 'plugin' ? 'plugins' : 'ui-plugins'}/${names.id} já existe: escolha outro nome ou apague a pasta`);
  }
  const files: string[] = [];
  for (const [part, dir] of Object.entries(targets)) {
    const from = path.join(TEMPLATES, kind, part);
    for (const rel of listTemplates(from)) {
      const dest = path.join(dir, fill(rel.slice(0, -'.tpl'.length), names));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, fill(fs.readFileSync(path.join(from, rel), 'utf8'), names));
      files.push(path.relative(root, dest));
    }
  }
  return { names, files };
}

const KIND_WORDS: Record<PluginKind, (n: PluginNames) => string> = {
  feature: (n) => `recurso com tela própria em /${n.id}`,
  tool: () => 'ferramenta do agente no painel do atendimento',
  channel: (n) => `canal do tipo '${n.type}'`,
};

/** The command: writes the plugin, lists what it wrote and says what to do next. */
export async function pluginCreate(ctx: CliContext, kind: string, name: string, opts: PluginCreateOptions): Promise<void> {
  const { names, files } = createPlugin(kind, name, opts);
  ctx.out(`Plugin ${names.id} criado (${KIND_WORDS[kind as PluginKind](names)}):`);
  for (const f of files) ctx.out(`  ${f}`);
  ctx.out('');
  ctx.out('Próximos passos:');
  ctx.out('  1. npm install                      (registra as novas pastas como workspaces)');
  ctx.out(`  2. npx vitest run plugins/${names.id}   (${kind === 'channel' ? 'o kit de conformidade contra o provedor falso' : 'os testes do plugin'})`);
  ctx.out(`  3. npm run build -w ui-plugins/${names.id}`);
  ctx.out('  4. npx atende start                 (o plugin já vem ativo para todos os tenants)');
  ctx.out(
    kind === 'channel'
      ? `  Depois troque as chamadas HTTP de plugins/${names.id}/src/index.ts pela API real do provedor e mantenha o falso (src/fake-provider.ts) e o kit verdes.`
      : kind === 'feature'
        ? `  A tela fica no menu lateral (${names.label}); depois adapte o contrato (src/contract.ts), a tabela, as rotas e a tela ao seu domínio (docs/plugin-authoring.md).`
        : '  Depois adapte o contrato (src/contract.ts), a tabela, as rotas e o painel ao seu domínio (docs/plugin-authoring.md).',
  );
}
