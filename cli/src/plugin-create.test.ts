import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from './capture.ts';
import { pluginNames } from './plugin-create.ts';

/**
 * `atende plugin create` writes into a scratch install (a folder with its own
 * plugins/ and ui-plugins/ inside the repository's ignored .atende-test/, so
 * the generated code resolves @atende/* and the libraries from the same
 * node_modules; the links `npm install` would add for the new workspaces are
 * made by hand). The generated feature and tool must pass their own tests and
 * the channel the conformance kit, run by vitest in a separate process, and
 * all three must typecheck. tests/e2e/scaffold.test.ts drives a generated
 * feature's screen in a browser.
 */
const REPO = path.resolve(import.meta.dirname, '..', '..');
const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atende' };
let root: string;

beforeAll(() => {
  fs.mkdirSync(path.join(REPO, '.atende-test'), { recursive: true });
  root = fs.mkdtempSync(path.join(REPO, '.atende-test', 'scaffold-'));
  fs.mkdirSync(path.join(root, 'plugins'));
  fs.mkdirSync(path.join(root, 'ui-plugins'));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const create = (...args: string[]) => runCaptured(['plugin', 'create', ...args, '--dir', root], env);

describe('atende plugin create', () => {
  it('documents itself in --help', async () => {
    const r = await runCaptured(['plugin', 'create', '--help'], env);
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    expect(text).toMatch(/^Usage: atende plugin create \[options\] <tipo> <nome>/);
    expect(text).toContain('feature, tool ou channel');
    expect(text).toContain('comece por aqui');
    expect(text).toContain('npx atende plugin create feature lembretes');
    expect(text).toContain('npx atende plugin create channel foo');
    expect((await runCaptured(['plugin', '--help'], env)).out.join('\n')).toMatch(/^\s+create \[options\] <tipo> <nome>/m);
  });

  it.each([
    [['widget', 'foo'], /'widget' is invalid for argument 'tipo'.*feature, tool, channel/],
    [['channel', 'Foo Bar'], /^Erro: nome inválido 'Foo Bar': use letras minúsculas/],
    [['channel', '9lives'], /^Erro: nome inválido '9lives'/],
    [['channel', 'foo--bar'], /^Erro: nome inválido 'foo--bar'/],
    [['tool', 'channel-foo'], /^Erro: o nome 'channel-foo' indica outro tipo de plugin/],
    [['feature', 'ai-resumo'], /^Erro: o nome 'ai-resumo' indica outro tipo de plugin/],
    [['feature', 'Lembretes'], /^Erro: nome inválido 'Lembretes'/],
    [['channel', 'core'], /^Erro: nome reservado 'core'/],
    [['channel'], /missing required argument 'nome'/],
  ])('refuses %j with one error line and writes nothing', async (args, message) => {
    const r = await create(...(args as string[]));
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(message as RegExp);
    expect(fs.readdirSync(path.join(root, 'plugins'))).toEqual([]);
    expect(fs.readdirSync(path.join(root, 'ui-plugins'))).toEqual([]);
  });

  it('refuses a folder that is not an install', async () => {
    const r = await runCaptured(['plugin', 'create', 'channel', 'foo', '--dir', path.join(root, 'nowhere')], env);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/não parece uma instalação do Atende/);
  });

  it('derives the names a plugin needs', () => {
    expect(pluginNames('feature', 'lembretes-rapidos')).toEqual({
      id: 'lembretes-rapidos', type: 'lembretes-rapidos', label: 'Lembretes Rapidos', table: 'lembretes_rapidos', event: 'lembretes_rapidos',
      key: 'lembretesRapidos', code: 'LEMBRETES_RAPIDOS', pascal: 'LembretesRapidos',
    });
    expect(pluginNames('channel', 'loja-virtual')).toMatchObject({ id: 'channel-loja-virtual', type: 'loja-virtual', label: 'Loja Virtual', table: 'channel_loja_virtual', pascal: 'ChannelLojaVirtual' });
    expect(pluginNames('channel', 'channel-foo').id).toBe('channel-foo');
    expect(pluginNames('tool', 'anotacoes')).toMatchObject({ id: 'anotacoes', table: 'anotacoes', event: 'anotacoes', key: 'anotacoes' });
  });

  it('generates a feature, a tool and a channel that pass their tests and typecheck', async () => {
    const feature = await create('feature', 'lembretes-rapidos');
    expect(feature.code, feature.err.join('\n')).toBe(0);
    expect(feature.out[0]).toBe('Plugin lembretes-rapidos criado (recurso com tela própria em /lembretes-rapidos):');
    for (const f of [
      'plugins/lembretes-rapidos/src/contract.ts', 'plugins/lembretes-rapidos/src/index.ts', 'plugins/lembretes-rapidos/src/lembretes-rapidos.test.ts',
      'ui-plugins/lembretes-rapidos/src/index.tsx', 'ui-plugins/lembretes-rapidos/src/ItemsPage.tsx', 'ui-plugins/lembretes-rapidos/src/ItemFormModal.tsx',
      'ui-plugins/lembretes-rapidos/src/locales.ts', 'ui-plugins/lembretes-rapidos/src/dev.tsx', 'ui-plugins/lembretes-rapidos/index.html', 'ui-plugins/lembretes-rapidos/vite.config.ts',
    ]) {
      expect(fs.existsSync(path.join(root, f)), f).toBe(true);
      expect(feature.out).toContain(`  ${f}`);
    }
    const contract = fs.readFileSync(path.join(root, 'plugins/lembretes-rapidos/src/contract.ts'), 'utf8');
    expect(contract).toContain("ERR_LEMBRETES_RAPIDOS_ITEM_EXISTS");
    expect(contract).toContain("'lembretes_rapidos.item_created': item");
    const remote = fs.readFileSync(path.join(root, 'ui-plugins/lembretes-rapidos/src/index.tsx'), 'utf8');
    expect(remote).toContain("menus: [{ key: 'lembretesRapidos', label: 'menu', icon: IconListDetails, path: '/lembretes-rapidos', section: 'service', order: 90 }]");
    expect(JSON.parse(fs.readFileSync(path.join(root, 'ui-plugins/lembretes-rapidos/package.json'), 'utf8')).dependencies).toEqual({ '@atende/plugin-lembretes-rapidos': '0.1.0' });

    const channel = await create('channel', 'foo');
    expect(channel.code, channel.err.join('\n')).toBe(0);
    expect(channel.out[0]).toBe("Plugin channel-foo criado (canal do tipo 'foo'):");
    expect(channel.out).toContain('Próximos passos:');
    for (const f of ['plugins/channel-foo/src/contract.ts', 'plugins/channel-foo/src/index.ts', 'plugins/channel-foo/src/fake-provider.ts', 'plugins/channel-foo/src/conformance.test.ts', 'ui-plugins/channel-foo/src/index.tsx', 'ui-plugins/channel-foo/src/locales.ts', 'ui-plugins/channel-foo/vite.config.ts']) {
      expect(fs.existsSync(path.join(root, f)), f).toBe(true);
      expect(channel.out).toContain(`  ${f}`);
    }
    const tool = await create('tool', 'anotacoes');
    expect(tool.code, tool.err.join('\n')).toBe(0);
    expect(tool.out[0]).toBe('Plugin anotacoes criado (ferramenta do agente no painel do atendimento):');

    // Second edition everywhere: no placeholder left, no casts, no unchecked principal.
    for (const id of ['lembretes-rapidos', 'channel-foo', 'anotacoes']) {
      for (const dir of [`plugins/${id}`, `ui-plugins/${id}`]) {
        for (const file of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
          const full = path.join(root, dir, file);
          if (!fs.statSync(full).isFile()) continue;
          const text = fs.readFileSync(full, 'utf8');
          expect(text, `${dir}/${file}`).not.toMatch(/__[A-Z]+__/);
          expect(text, `${dir}/${file}`).not.toMatch(/as z\.infer|req\.principal!/);
        }
      }
    }

    // The same names again: refused, nothing overwritten.
    const again = await create('channel', 'foo');
    expect(again.code).toBe(1);
    expect(again.err).toEqual(['Erro: plugins/channel-foo já existe: escolha outro nome ou apague a pasta']);

    // What `npm install` does for the new workspaces: @atende/plugin-<id> resolves to the plugin, for the remotes' contract imports.
    fs.mkdirSync(path.join(root, 'node_modules/@atende'), { recursive: true });
    for (const id of ['lembretes-rapidos', 'channel-foo', 'anotacoes']) fs.symlinkSync(path.join('..', '..', 'plugins', id), path.join(root, 'node_modules/@atende', `plugin-${id}`));

    // Typecheck exactly the generated code, against the real SDKs.
    fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({
      extends: path.join(REPO, 'tsconfig.json'),
      include: [path.join(root, 'plugins/*/src'), path.join(root, 'ui-plugins/*/src')],
    }));
    const tsc = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json'), '--noEmit'], { encoding: 'utf8' });
    const scaffoldErrors = `${tsc.stdout}${tsc.stderr}`.split('\n').filter((l) => l.includes('.atende-test'));
    expect(scaffoldErrors).toEqual([]);

    // Run the generated tests with vitest, as the author will.
    fs.writeFileSync(path.join(root, 'vitest.config.ts'), `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['plugins/*/src/**/*.test.ts'], globalSetup: [${JSON.stringify(path.join(REPO, 'core/src/testing/global-setup.ts'))}], pool: 'forks', maxWorkers: 1, testTimeout: 60_000, hookTimeout: 120_000 } });
`);
    const vitest = spawnSync(process.execPath, [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', root, '--reporter', 'verbose'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 540_000,
    });
    const report = `${vitest.stdout}\n${vitest.stderr}`;
    expect(vitest.status, report.slice(-4000)).toBe(0);
    expect(report).toMatch(/channel conformance: channel-foo/);
    expect(report).toMatch(/outbound text: reaches the provider exactly once/);
    expect(report).toMatch(/acks out of order never move a message backwards/);
    expect(report).toMatch(/an agent adds an item to a contact/);
    expect(report).toMatch(/a user creates an item, the tenant hears about it live/);
    expect(report).toMatch(/an admin requires a note for the tenant/);
    expect(report).toMatch(/Tests\s+\d+ passed/);
    expect(report).not.toMatch(/\d+ failed/);
  }, 600_000);
});
