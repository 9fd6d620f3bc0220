import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** One `no-restricted-imports` rule per folder: the folders of app/ it may not import from. */
function layerRules(layers) {
  return Object.entries(layers).map(([files, above]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: above.map((folder) => ({
            group: [`~/${folder}/*`, `**/${folder}/*`],
            allowTypeImports: true,
            message: `${files.replace('/**', '')} lies below app/${folder}: it may not import from it (see CONTRIBUTING.md, Layers).`,
          })),
        },
      ],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      'build*/**',
      'node_modules/**',
      '.cache/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['warn', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  // The layers: routes → services → models → the ground floor (app/lib, with the shared
  // schemas and utils). Each imports only what lies below it; e-mail bodies (app/emails) sit
  // beside the models, for the services to send. Type-only imports are not arrows at run time.
  ...layerRules({
    'app/lib/**': ['models', 'services', 'emails', 'routes', 'components'],
    'app/schemas/**': ['lib', 'models', 'services', 'emails', 'routes', 'components'],
    'app/utils/**': ['lib', 'models', 'services', 'emails', 'routes', 'components'],
    'app/models/**': ['services', 'emails', 'routes', 'components'],
    'app/emails/**': ['models', 'services', 'routes', 'components'],
    'app/services/**': ['routes', 'components'],
  }),
);
