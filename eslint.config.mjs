// ESLint (flat config, typescript-eslint): `npm run lint`, run by .ci/run. docs/decisions/tooling.md says
// why each rule below is on, off or scoped; formatting is Prettier's (`npm run format:check`), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'src/core/openapi/published.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      // `any` is kept out of the data boundaries (the stores, below); elsewhere the tree still has it
      '@typescript-eslint/no-explicit-any': 'off',
      // `Function` as a type is used by the Nest decorator helpers; the rule is about style there
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // the input checks look for NUL and other control characters on purpose
      'no-control-regex': 'off',
      // a stream sink is an async generator that only consumes (stream.pipeline)
      'require-yield': 'off',
      // `_name` marks an unused binding on purpose; a rest sibling drops members from a copy
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // the async-context binder keeps the resource it binds to
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['resource'] }],
    },
  },
  {
    // the Node scripts the tests spawn (ES modules: an independent verifier, a PDF reader, an identity provider)
    files: ['**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // the tests may load a module lazily (after an environment variable is set, or only on one path)
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // the data boundaries: a store's rows are typed (docs/decisions/data-access.md), so no `any` there
    files: ['src/**/*.store.ts', 'src/core/database/fragments.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
);
