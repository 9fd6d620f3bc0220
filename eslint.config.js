import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Below the HTTP adapters nothing speaks HTTP: the framework's request and answer helpers. */
const HTTP_PACKAGES = {
  group: ['@remix-run/*'],
  message:
    'Services, models and e-mails speak the domain: requests, answers, cookies and sessions belong to app/http (see CONTRIBUTING.md, Layers).',
};

/**
 * One `no-restricted-imports` rule per folder: the folders of app/ it may not import from, and
 * for the domain's floors the framework's HTTP packages.
 */
function layerRules(layers) {
  return Object.entries(layers).map(([files, { above, remix = true }]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...above.map((folder) => ({
              group: [`~/${folder}/*`, `**/${folder}/*`],
              allowTypeImports: true,
              message: `${files.replace('/**', '')} lies below app/${folder}: it may not import from it (see CONTRIBUTING.md, Layers).`,
            })),
            ...(remix ? [] : [HTTP_PACKAGES]),
          ],
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
  // The layers: routes → the HTTP adapters (app/http) → services → models → the ground floor
  // (app/lib, with the shared schemas and utils). Each imports only what lies below it; e-mail
  // bodies (app/emails) sit beside the models, for the services to send. Type-only imports are
  // not arrows at run time. Below app/http nothing imports the framework's HTTP packages.
  ...layerRules({
    'app/lib/**': { above: ['http', 'models', 'services', 'emails', 'routes', 'components'] },
    'app/schemas/**': {
      above: ['lib', 'http', 'models', 'services', 'emails', 'routes', 'components'],
    },
    'app/utils/**': {
      above: ['lib', 'http', 'models', 'services', 'emails', 'routes', 'components'],
    },
    'app/models/**': {
      above: ['http', 'services', 'emails', 'routes', 'components'],
      remix: false,
    },
    'app/emails/**': {
      above: ['http', 'models', 'services', 'routes', 'components'],
      remix: false,
    },
    'app/services/**': { above: ['http', 'routes', 'components'], remix: false },
    'app/http/**': { above: ['routes', 'components'] },
  }),
  // A page's loader and action are left out of the browser's bundle, and the server's modules
  // with them; an export made by a call at the top of the module would still run there, and fail.
  {
    files: ['app/routes/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name=/^(loader|action)$/] > CallExpression.init',
          message:
            'A page exports its loader and action as functions (`(args) => builder(…)(args)`): a call at the top of the module runs in the browser too.',
        },
      ],
    },
  },
);
