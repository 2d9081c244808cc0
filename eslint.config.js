import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.nx/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    // Request ids travel on the command (ActorRef.requestId): on Node 20 an AsyncLocalStorage turns
    // on a promise hook for every promise of the process (docs/decisions/0012-request-ids.md).
    files: ['libs/*/src/**/*.ts', 'services/*/src/**/*.ts', 'apps/all-in-one/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:async_hooks', 'async_hooks'].map((name) => ({
            name,
            importNames: ['AsyncLocalStorage', 'AsyncResource', 'createHook'],
            message: 'no ambient context on Node 20: pass the request id on the command (ActorRef.requestId)',
          })),
        },
      ],
    },
  },
  {
    // The operator UI runs in the browser.
    files: ['apps/panel-web/**/*.{ts,tsx}'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        localStorage: 'readonly',
        sessionStorage: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        console: 'readonly',
      },
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
