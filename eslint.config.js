// The linter's small rule set (`npm run lint`, run by `npm test`): the recommended JavaScript and
// TypeScript rules without type information (fast on two cores), the React hooks rules, and the
// habits below. Formatting is Prettier's job (.prettierrc), not the linter's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Node's globals, for the plain .mjs/.js scripts (TypeScript files get theirs from tsc). */
const NODE_GLOBALS = {
  process: 'readonly',
  console: 'readonly',
  URL: 'readonly',
  Buffer: 'readonly',
  setTimeout: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.gpu/**',
      '.gl/**',
      'public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // `_name` marks a value taken out on purpose (a rest sibling, an unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  // Small modules and short functions: a file says one thing (450 lines at most), a function does
  // one thing (80 lines at most, blanks and comments not counted). The knob table is a table, not
  // code; a test's describe block is a list of cases.
  {
    files: ['src/**/*.{ts,tsx}', 'e2e/**/*.ts', 'scripts/**', 'bench/**'],
    ignores: ['src/config/knobs.ts'],
    rules: { 'max-lines': ['error', { max: 450 }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', 'src/config/knobs.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // Tests read JSON of any shape from the CLI's files: `any` is allowed there, nowhere else.
  { files: ['**/*.test.ts', 'e2e/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // TypeScript checks undefined names in .ts files itself; plain scripts need Node's listed.
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: NODE_GLOBALS } },
);
