// ESLint over the whole repository: JavaScript's and typescript-eslint's recommended sets, type-aware
// where it catches what the compiler cannot (a promise nobody awaits), and `import type` wherever a
// name is only a type, since Node's type stripping keeps a plain import and fails at run time.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['libs/kit/src/gen/**', 'gateway/console/dist/**', 'node_modules/**', '.data/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // `import('x').T` in a type position is erased like `import type`, so it is allowed.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // A leading underscore marks a parameter or binding kept on purpose (express's error handler
      // needs its four parameters; a rest destructuring drops the fields it names).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Migrations are written by MikroORM's generator (`npm run migration:create`) and kept as it wrote them.
    files: ['*/src/migrations/**/*.ts'],
    rules: { 'no-useless-escape': 'off' },
  },
  {
    // Tests and benchmarks read JSON bodies of every shape the API answers; typing each one would
    // restate the API document in the tests.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Inside the bound `function`, `this` is its caller's; the resource it binds to is kept in a local
    // first, as Node's own AsyncResource.bind does.
    files: ['libs/kit/src/runtime/patches/async-resource-bind.ts'],
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
);
