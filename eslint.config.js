import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import moduleBoundaries from './eslint-rules/module-boundaries.js';

export default tseslint.config(
  { ignores: ['build/', '.react-router/', 'node_modules/', 'var/', 'e2e/artifacts/', 'bench/results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Layering (architecture §3, §8): the app talks to the API contract, never to server code;
    // common/ is shared by both and depends on neither.
    files: ['app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '../server/*'], message: 'The app talks to the API, not to server code.' }] },
      ],
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/app/**', '~/*'], message: 'common/ depends on nothing above it.' }] },
      ],
    },
  },
  {
    // Module faces (architecture §3): other code imports a module only through its index.ts, and
    // only the module itself touches its tables. See eslint-rules/module-boundaries.js.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { house: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: {
      'house/module-boundaries': [
        'error',
        {
          exceptions: ['providers', 'protocol', 'provider-client'].map((file) => ({
            importer: 'server/game-aggregator/wallet-protocol.ts',
            target: `server/modules/provider-wallet/${file}`,
            reason:
              'the demo aggregator is another process that knows nothing of our database: it takes only the wire protocol and signing, not the service behind the index',
          })),
        },
      ],
    },
  },
);
