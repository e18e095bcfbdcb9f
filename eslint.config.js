// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * Lint for the whole repository: typescript-eslint's recommended rules (no type
 * information, so a lint stays seconds long) and the import rules that find
 * circles and imports that resolve nowhere. Formatting is prettier's.
 */
export default tseslint.config(
  { ignores: ['dist/**', 'reports/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mjs,js}'],
    plugins: { 'import-x': importX },
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' },
    },
    // `./x.js` in a source file is `./x.ts` on disk (NodeNext), as tsc resolves it.
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })] },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-unresolved': 'error',
      // A destructured field left out on purpose (`{ size: _size, ...rest }`) is how an object drops a key.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      // A timer declared before the callback that clears it and set after: `const` would read it before it exists.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Matching control characters is the point of the escapers and terminal guards that use such patterns.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests, benches and examples edit untyped JSON documents and third-party objects (an OpenAPI document, autocannon's client hooks);
    // `any` there marks a deliberate poke, the shipped code (src/, properties/) keeps the rule.
    files: ['test/**', 'bench/**', 'examples/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
