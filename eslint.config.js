import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * One lint config for the whole repository. Its real job is the plugin
 * boundary (docs/architecture.md, "Lint boundary"): a server plugin imports from the kernel only
 * `@atende/core/sdk` (and `@atende/core/testing` in its tests), a UI plugin
 * imports from the shell only `@atende/ui-shell/sdk`, neither imports another
 * plugin, and neither reaches out of its own folder by a relative path.
 * Everything else is kept light: TypeScript's strict mode does the heavy
 * checking, and lint failures should mean a real problem.
 */

const ROOT = import.meta.dirname;

const SERVER_PLUGIN_RULES = [
  { regex: '^@atende/core(?!/sdk$)(?!/contract$)(?!/testing$)(/.*)?$', message: 'Um plugin importa do núcleo apenas @atende/core/sdk e @atende/core/contract (ou @atende/core/testing nos testes).' },
  { regex: '^@atende/core/testing$', message: '@atende/core/testing é só para testes (*.test.ts).' },
  { regex: '^@atende/(plugin|ui-plugin)-', message: 'Um plugin não importa outro plugin: use eventos, serviços do ctx ou registros.' },
  { regex: '^@atende/(ui-shell|cli)(/.*)?$', message: 'Um plugin de servidor não importa a interface nem a CLI.' },
];
const SERVER_PLUGIN_TEST_RULES = SERVER_PLUGIN_RULES.filter((r) => !r.regex.startsWith('^@atende/core/testing'));
/**
 * A remote imports from the server side only its own plugin's contract
 * (`@atende/plugin-<id>/contract`: schemas, errors, events) and the kernel's
 * browser-safe contract module; everything else goes through the HTTP API.
 * `{id}` stands for the folder the importing file lives in.
 */
const UI_PLUGIN_RULES = [
  { regex: '^@atende/ui-shell(?!/sdk$)(/.*)?$', message: 'Um plugin de interface importa do shell apenas @atende/ui-shell/sdk.' },
  { regex: '^@atende/(core(?!/contract$)|cli)(/.*)?$', message: 'Um plugin de interface não importa código do servidor (só @atende/core/contract e o contrato do próprio plugin): use a API HTTP pelo cliente do SDK.' },
  { regex: '^@atende/(plugin-(?!{id}/contract$)|ui-plugin-)', message: 'Um plugin não importa outro plugin (a interface importa só o contrato do próprio plugin: @atende/plugin-<id>/contract).' },
];

/**
 * The part `no-restricted-imports` cannot express: where a relative import
 * lands depends on the importing file's depth, so it is resolved here, and
 * `import()` and `require()` (which that rule does not see) get the same
 * package restrictions.
 */
const ownFolder = {
  meta: {
    type: 'problem',
    docs: { description: 'keeps a plugin inside its own folder and behind the SDK' },
    schema: [{ type: 'array', items: { type: 'object', properties: { regex: { type: 'string' }, message: { type: 'string' } } } }],
    messages: {
      escape: 'O import "{{source}}" sai da pasta {{root}}: um plugin importa só o SDK, pacotes npm e arquivos da própria pasta.',
      restricted: '{{message}}',
    },
  },
  create(context) {
    const file = context.filename;
    const parts = path.relative(ROOT, file).split(path.sep);
    if (parts.length < 3) return {};
    const pluginRoot = path.join(ROOT, parts[0], parts[1]);
    const escapeId = parts[1].replace(/[^a-z0-9-]/g, '');
    const packages = (context.options[0] ?? []).map((r) => ({ re: new RegExp(r.regex.replaceAll('{id}', escapeId)), message: r.message, perPlugin: r.regex.includes('{id}') }));
    // Package names in static imports are no-restricted-imports' to report; here only import() and require().
    const check = (node, packagesToo = false) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const source = node.value;
      if (source.startsWith('.') || source.startsWith('/') || source.startsWith('file:')) {
        const target = source.startsWith('file:') ? new URL(source).pathname : path.resolve(path.dirname(file), source);
        if (target !== pluginRoot && !target.startsWith(pluginRoot + path.sep)) {
          context.report({ node, messageId: 'escape', data: { source, root: path.relative(ROOT, pluginRoot) } });
        }
        return;
      }
      // Static imports are no-restricted-imports' to report, except the patterns that depend on the importing plugin's id.
      const hit = packages.find((p) => (packagesToo || p.perPlugin) && p.re.test(source));
      if (hit) context.report({ node, messageId: 'restricted', data: { message: hit.message } });
    };
    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source, true),
      'CallExpression[callee.name="require"]': (n) => check(n.arguments[0], true),
    };
  },
};
const atende = { rules: { 'plugin-boundary': ownFolder } };

const boundary = (rules) => ({
  plugins: { atende },
  rules: {
    'no-restricted-imports': ['error', { patterns: rules.filter((r) => !r.regex.includes('{id}')) }],
    'atende/plugin-boundary': ['error', rules],
  },
});

export default defineConfig([
  globalIgnores(['**/dist/', '**/node_modules/', 'data/', '.atende-test/', 'coverage/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // TypeScript resolves names; for the few .js/.mjs files Node's globals are all they use.
      'no-undef': 'off',
      // Boundaries with untyped libraries (MikroORM internals, BullMQ backends, module federation) need `any`.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Used for typed declaration merging with Fastify and for `declare module` blocks.
      '@typescript-eslint/no-namespace': 'off',
      // A plugin contract merges its events and error codes into the install's maps with an empty
      // `interface AtendeEvents extends EventsOf<typeof contract> {}` (docs/plugin-authoring.md).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Empty catch blocks carry a comment saying why the error is irrelevant.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Errors are re-thrown with a user-facing message on purpose (the catalogue, one-line CLI errors).
      'preserve-caught-error': 'off',
      // Sanitising file names and user text means matching control characters.
      'no-control-regex': 'off',
      // Style only: an escaped '-' or '/' in a character class is harmless and often clearer.
      'no-useless-escape': 'off',
    },
  },
  { files: ['plugins/**/*.{ts,tsx,js,mjs}'], ...boundary(SERVER_PLUGIN_RULES) },
  { files: ['plugins/**/*.test.{ts,tsx}'], ...boundary(SERVER_PLUGIN_TEST_RULES) },
  {
    files: ['ui-plugins/**/*.{ts,tsx,js,mjs}'],
    // A remote's vite config is build tooling, not plugin code: it must load the
    // shell's single shared module-federation settings (ui-shell/mf-shared.ts).
    ignores: ['ui-plugins/*/vite.config.ts'],
    ...boundary(UI_PLUGIN_RULES),
  },
]);
