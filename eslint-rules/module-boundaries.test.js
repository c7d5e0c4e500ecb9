import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import moduleBoundaries from './module-boundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;
RuleTester.afterAll = afterAll;

const root = '/project';
const options = [{ root }];
const at = (file) => `${root}/${file}`;
const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

ruleTester.run('module-boundaries', moduleBoundaries, {
  valid: [
    {
      name: 'server code imports a module through its index',
      filename: at('server/services.ts'),
      code: "import { createWalletService } from './modules/wallet';",
      options,
    },
    {
      name: 'the index may be named',
      filename: at('server/http.ts'),
      code: "import { createLiveRoutes } from './modules/live-games/index';",
      options,
    },
    {
      name: 'a module imports another module through its index',
      filename: at('server/modules/cashier/service.ts'),
      code: "import type { WalletService } from '../wallet';",
      options,
    },
    {
      name: 'a module imports its own internals',
      filename: at('server/modules/wallet/service.ts'),
      code: "import { house } from './postings';\nimport { ledgerTransfers } from './tables';",
      options,
    },
    {
      name: 'a module test imports its own internals',
      filename: at('server/modules/auth/totp.test.ts'),
      code: "import { matchTotp } from './totp';",
      options,
    },
    {
      name: 'tables reference other tables for foreign keys',
      filename: at('server/modules/games/tables.ts'),
      code: "import { users } from '../account/tables';",
      options,
    },
    {
      name: 'a sub-folder tables file references other tables',
      filename: at('server/modules/payments/sandbox/tables.ts'),
      code: "import { users } from '../../account/tables';",
      options,
    },
    {
      name: 'the schema index gathers every table',
      filename: at('server/db/schema.ts'),
      code: "export * from '../modules/account/tables';",
      options,
    },
    {
      name: 'a test reads tables through the schema index',
      filename: at('server/modules/cashier/cashier.test.ts'),
      code: "import { users } from '../../db/schema';",
      options,
    },
    {
      name: 'packages and common/ are not modules',
      filename: at('server/web/hit.ts'),
      code: "import { z } from 'zod';\nimport { money } from '#common/money';",
      options,
    },
    {
      name: 'a listed exception is allowed',
      filename: at('server/modules/freespins/service.ts'),
      code: "import type { gameRounds } from '../game-rounds/tables';",
      options: [
        {
          root,
          exceptions: [
            { importer: 'server/modules/freespins/service.ts', target: 'server/modules/game-rounds/tables', reason: 'test' },
          ],
        },
      ],
    },
  ],
  invalid: [
    {
      name: 'server code reaching into a module',
      filename: at('server/web/backoffice.ts'),
      code: "import { checkLedger } from '../modules/wallet/ledger-check';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      name: 'a module reaching into another module',
      filename: at('server/modules/cashier/service.ts'),
      code: "import { house, move } from '../wallet/postings';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      name: 'a type-only reach counts too',
      filename: at('server/modules/auth/service.ts'),
      code: "import type { UserRow } from '../account/service';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      name: 'a re-export of internals',
      filename: at('test/helpers.ts'),
      code: "export { totpCode } from '../server/modules/auth/totp';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      name: 'a dynamic import of internals',
      filename: at('bench/ledger.ts'),
      code: "await import('../server/modules/wallet/service');",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      name: 'a test of one module reaching into another',
      filename: at('server/modules/social/social-sign-in.test.ts'),
      code: "import { totpCode } from '../auth/totp';",
      options,
      errors: [{ messageId: 'internal' }],
    },
    {
      name: 'a service reading another module’s tables',
      filename: at('server/modules/verification/service.ts'),
      code: "import { users } from '../account/tables';",
      options,
      errors: [{ messageId: 'tables' }],
    },
    {
      name: 'a test reading another module’s tables directly',
      filename: at('server/modules/cashier/cashier.test.ts'),
      code: "import { users } from '../account/tables';",
      options,
      errors: [{ messageId: 'tables' }],
    },
    {
      name: 'application code reading the whole schema',
      filename: at('server/modules/social/service.ts'),
      code: "import { users } from '../../db/schema';",
      options,
      errors: [{ messageId: 'schema' }],
    },
  ],
});

describe('the lint configuration', () => {
  it('fails the lint on a reach into a module and passes its index', async () => {
    const eslint = new ESLint();
    const lint = async (code) => (await eslint.lintText(code, { filePath: 'server/web/reach-fixture.ts' }))[0].messages;
    expect(
      await lint("import { checkLedger } from '../modules/wallet/ledger-check';\nexport const check = checkLedger;\n"),
    ).toEqual([expect.objectContaining({ ruleId: 'house/module-boundaries', severity: 2 })]);
    expect(await lint("import { checkLedger } from '../modules/wallet';\nexport const check = checkLedger;\n")).toEqual([]);
  });
});
