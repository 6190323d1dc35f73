// ESLint for scion's sources and tests (run by .ci/run as `npm run lint`): the recommended rules of
// ESLint and typescript-eslint, and the few rules that keep this code base's conventions.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/**/fixtures/**', 'fixtures/**', 'recipes/transforms/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Unused names are mistakes, except a deliberately ignored `_` parameter or rest sibling.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Terminal output escapes and path checks match control characters on purpose.
      'no-control-regex': 'off',
      // Lines stay within 160 characters, strings and templates included (a long text is concatenated or
      // joined); only a URL may run past, as it cannot be cut where a reader would follow it.
      'max-len': ['error', { code: 160, ignoreUrls: true }],
    },
  },
);
