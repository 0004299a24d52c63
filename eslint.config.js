import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

/** The web calls the API through the typed client of its contracts, never by hand. */
const httpByHand = [
  {
    selector: "CallExpression[callee.property.name=/^(get|post|put|patch|delete|request|download)$/][callee.object.name='http']",
    message: "Call the API through the typed client: useApi(<module>Api) in the feature's <feature>-api.ts.",
  },
  {
    selector: "CallExpression[callee.property.name=/^(get|post|put|patch|delete|request|download)$/][callee.object.property.name='http']",
    message: "Call the API through the typed client: useApi(<module>Api) in the feature's <feature>-api.ts.",
  },
  {
    selector: "TSNonNullExpression[expression.type='AwaitExpression']",
    message: 'An answer is typed by its contract; no `(await …)!`.',
  },
];

/** Components show; the calls of a feature live in its <feature>-api.ts (hooks and commands). */
const callsInComponents = [
  ...httpByHand,
  {
    selector: "MemberExpression[property.name='http']",
    message: "A component never holds the HTTP client; use the hooks of the feature's <feature>-api.ts.",
  },
  {
    selector: "ObjectPattern > Property[key.name='http']",
    message: "A component never holds the HTTP client; use the hooks of the feature's <feature>-api.ts.",
  },
  {
    selector: "CallExpression[callee.name='fetch']",
    message: "A component never fetches; use the hooks of the feature's <feature>-api.ts.",
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.tsbuild/**', 'data/**', '.vitest/**', 'screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The HTTP client itself, and the two hooks that fetch the links an answer carries (stored files).
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: [...TESTS, 'packages/web/src/api/**', 'packages/web/src/ui/files.ts', 'packages/web/src/ui/stored-files.ts'],
    rules: { 'no-restricted-syntax': ['error', ...httpByHand] },
  },
  {
    files: ['packages/web/src/**/*.tsx'],
    ignores: TESTS,
    rules: {
      'no-restricted-syntax': ['error', ...callsInComponents],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/use-api.js', '**/api/client.js', '**/api/upload.js', '**/api/http.js'],
              allowTypeImports: true,
              message: "Components call the API through the hooks of the feature's <feature>-api.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    // A module reads another module's tables only through that module's read API (`read.ts`).
    files: ['packages/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/tables.js', '../*/tables', '../../modules/*/tables.js'],
              message: "Read another module's tables through its read API (`../<module>/read.js`).",
            },
          ],
        },
      ],
    },
  },
);
