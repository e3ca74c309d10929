import fs from 'node:fs';
import path from 'node:path';
import { CliError, type CliContext } from './context.ts';

/**
 * `atende plugin create <kind> <name>`: writes a new plugin from the
 * templates in `cli/templates/<kind>/` — the server part in
 * `plugins/<id>` and its UI remote in `ui-plugins/<id>` — so an author starts
 * from code that already passes its tests:
 *
 * - `channel`: `definePlugin` with a `ChannelAdapter` for a webhook provider,
 *   a local fake of that provider and the conformance kit run against it, and
 *   a remote with the provider fields of the `/sessoes` channel dialog;
 * - `tool`: an agent tool with its own table, routes and test, and a remote
 *   that shows it in the ticket screen's side panel.
 *
 * Templates are plain files ending in `.tpl`; `__ID__`, `__TYPE__`,
 * `__LABEL__`, `__TABLE__` and `__EVENT__` in their paths and text are
 * replaced. Nothing is written when the name is bad or the plugin exists.
 */

export const PLUGIN_KINDS = ['channel', 'tool'] as const;
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
  /** camelCase aggregate of its events (`lembretesRapidos`). */
  event: string;
}

/** Checks a name and derives the plugin's names from it; throws a one-line CliError when it is not usable. */
export function pluginNames(kind: string, rawName: string): PluginNames {
  if (!(PLUGIN_KINDS as readonly string[]).includes(kind)) throw new CliError(`tipo de plugin desconhecido '${kind}': use ${PLUGIN_KINDS.join(' ou ')}`);
  const name = rawName.trim();
  const base = kind === 'channel' && name.startsWith('channel-') ? name.slice('channel-'.length) : name;
  if (!NAME_RE.test(base) || base.length > 40) throw new CliError(`nome inválido '${rawName}': use letras minúsculas, números e hífens, começando por letra (ex.: minha-loja)`);
  if (RESERVED.has(base)) throw new CliError(`nome reservado '${rawName}': escolha outro`);
  if (kind === 'tool' && KIND_PREFIXES.some((p) => base.startsWith(p))) throw new CliError(`o nome '${rawName}' indica outro tipo de plugin: para um canal use 'atende plugin create channel ${base.replace(/^channel-/, '')}'`);
  const id = kind === 'channel' ? `channel-${base}` : base;
  const words = base.split('-');
  return {
    id,
    type: base,
    label: words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' '),
    table: (kind === 'channel' ? id : base).replace(/-/g, '_'),
    event: words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(''),
  };
}

function fill(text: string, n: PluginNames): string {
  return text.replaceAll('__ID__', n.id).replaceAll('__TYPE__', n.type).replaceAll('__LABEL__', n.label).replaceAll('__TABLE__', n.table).replaceAll('__EVENT__', n.event);
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

/** The command: writes the plugin, lists what it wrote and says what to do next. */
export async function pluginCreate(ctx: CliContext, kind: string, name: string, opts: PluginCreateOptions): Promise<void> {
  const { names, files } = createPlugin(kind, name, opts);
  ctx.out(`Plugin ${names.id} criado (${kind === 'channel' ? `canal do tipo '${names.type}'` : 'ferramenta do agente'}):`);
  for (const f of files) ctx.out(`  ${f}`);
  ctx.out('');
  ctx.out('Próximos passos:');
  ctx.out('  1. npm install                      (registra as novas pastas como workspaces)');
  ctx.out(`  2. npx vitest run plugins/${names.id}   (${kind === 'channel' ? 'o kit de conformidade contra o provedor falso' : 'os testes do plugin'})`);
  ctx.out(`  3. npm run build -w ui-plugins/${names.id}`);
  ctx.out('  4. npx atende start                 (o plugin já vem ativo para todos os tenants)');
  ctx.out(kind === 'channel'
    ? `  Depois troque as chamadas HTTP de plugins/${names.id}/src/index.ts pela API real do provedor e mantenha o falso (src/fake-provider.ts) e o kit verdes.`
    : `  Depois adapte a tabela, as rotas e o painel ao seu domínio (docs/plugin-authoring.md).`);
}
