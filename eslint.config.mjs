// ESLint (flat config): typescript-eslint with the type-aware rules that catch real bugs here
// (a promise nobody awaits or catches, a promise where a callback's result is ignored, awaiting
// a non-promise), react-hooks for the client. Formatting is Prettier's job (npm run format:check).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const typed = ['server/src/**/*.ts', 'client/src/**/*.{ts,tsx}', 'client/*.ts', 'tests/**/*.ts', 'bench/**/*.ts'];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'client/src/gql/**', 'client/src/lib/*.generated.ts', '.data/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: typed,
    languageOptions: {
      parserOptions: {
        // Every TypeScript file belongs to one of these programs (tests/tsconfig.json holds the tests,
        // bench/tsconfig.json the TypeScript benches).
        project: ['server/tsconfig.json', 'client/tsconfig.json', 'tests/tsconfig.json', 'bench/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // JSX handlers may return a promise (React ignores it; our handlers catch their own errors).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      // Apollo Client 4 hands errors over as ErrorLike (always an Error at run time).
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'package', package: '@apollo/client', name: 'ErrorLike' }] }],
      // Stripping control characters from untrusted text is exactly what those regexes are for.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read arbitrary JSON answers; typing every one of them would only restate the assertions.
    files: ['tests/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['tests/support/client-setup.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.{js,mjs,cjs}', 'codegen.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node } },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
);
