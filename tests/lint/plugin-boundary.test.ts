import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

/** Lints `code` as if it lived at `file` and returns the boundary findings. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'atende/plugin-boundary').map((m) => m.message);
}

describe('plugin boundary (eslint.config.js)', () => {
  it('lets a server plugin use the SDK, npm packages, Node built-ins and its own files', async () => {
    const code = `import { definePlugin } from '@atende/core/sdk';\nimport { z } from 'zod';\nimport fs from 'node:fs';\nimport { helper } from '../helper.ts';\nexport const x = [definePlugin, z, fs, helper];\n`;
    expect(await boundaryErrors('plugins/probe/src/routes/list.ts', code)).toEqual([]);
  });

  it.each([
    ["import { buildApp } from '@atende/core';", /apenas @atende\/core\/sdk/],
    ["import { x } from '@atende/core/src/app.ts';", /apenas @atende\/core\/sdk/],
    ["import { createTestApp } from '@atende/core/testing';", /só para testes/],
    ["import demands from '@atende/plugin-demands';", /não importa outro plugin/],
    ["import { api } from '@atende/ui-shell/sdk';", /não importa a interface/],
    ["import d from '../../../demands/src/index.ts';", /sai da pasta plugins\/probe/],
    ["import a from '../../../../core/src/app.ts';", /sai da pasta plugins\/probe/],
    ["export const load = () => import('@atende/core');", /apenas @atende\/core\/sdk/],
  ])('refuses in a server plugin: %s', async (code, message) => {
    const errors = await boundaryErrors('plugins/probe/src/routes/list.ts', `${code}\n`);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(message);
  });

  it('lets plugin tests use the test kit', async () => {
    const code = `import { createTestApp } from '@atende/core/testing';\nimport { AppError } from '@atende/core/sdk';\nexport const x = [createTestApp, AppError];\n`;
    expect(await boundaryErrors('plugins/probe/src/probe.test.ts', code)).toEqual([]);
  });

  it('lets a server plugin import the kernel contract module', async () => {
    const code = `import { defineContract } from '@atende/core/contract';\nexport const x = [defineContract];\n`;
    expect(await boundaryErrors('plugins/probe/src/contract.ts', code)).toEqual([]);
  });

  it('lets a UI plugin use the shell SDK, npm packages, the kernel contract module and its own plugin contract only', async () => {
    const ok = `import { defineUiPlugin } from '@atende/ui-shell/sdk';\nimport { Button } from '@mantine/core';\nimport { contract } from '@atende/plugin-probe/contract';\nimport { idParam } from '@atende/core/contract';\nexport const x = [defineUiPlugin, Button, contract, idParam];\n`;
    expect(await boundaryErrors('ui-plugins/probe/src/index.tsx', ok)).toEqual([]);
    for (const bad of [
      "import { contract } from '@atende/plugin-demands/contract';",
      "import probe from '@atende/plugin-probe';",
      "import { x } from '@atende/plugin-probe/src/index.ts';",
      "import { validation } from '@atende/core/validation';",
      "import shell from '@atende/ui-shell';",
      "import main from '@atende/ui-shell/src/main.tsx';",
      "import { z } from '@atende/core/sdk';",
      "import other from '@atende/ui-plugin-demands';",
      "import sdk from '../../../ui-shell/src/sdk/index.ts';",
    ]) {
      expect(await boundaryErrors('ui-plugins/probe/src/index.tsx', `${bad}\n`), bad).not.toEqual([]);
    }
  });
});
