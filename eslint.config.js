// ESLint (flat config): JavaScript's common mistakes, and the size limits the code keeps so that a
// function reads on one screen. Shared code is linted once, in src/chrome (src/firefox holds copies,
// checked by parity); vendored third-party code is not ours to lint.
import js from '@eslint/js';
import globals from 'globals';

/** Functions longer than this hide steps worth naming; code injected into a page whole is exempt. */
export const MAX_FUNCTION_LINES = 100;
/** Branches per function (cyclomatic complexity). */
export const MAX_COMPLEXITY = 30;

export default [
  { ignores: ['src/firefox/**', '**/vendor/**', 'src/vendor/**', 'node_modules/**', 'test-artifacts/**', 'dist/**', 'web-ext-artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.webextensions, ...globals.node, ...globals.mocha },
    },
    rules: {
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      complexity: ['error', MAX_COMPLEXITY],
      'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true }],
    },
  },
  // Tests: a describe block is a list of cases, not a function hiding steps, and a scripted mock is
  // one table of turns; the limits warn there instead of failing.
  {
    files: ['test/**/*.js', 'test/**/*.mjs'],
    rules: {
      complexity: ['warn', MAX_COMPLEXITY],
      'max-lines-per-function': ['warn', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  // The content scripts the manifests load are joined from content/src/ by npm run sync: the modules are linted.
  { ignores: ['src/chrome/content/*.js'] },
  // The reader runs after the libraries injected before it, which are globals.
  { files: ['src/chrome/content/src/reader.js'], languageOptions: { globals: { Readability: 'readonly', TurndownService: 'readonly' } } },
  // The fixture site's page scripts are classic scripts that share functions through the page's globals.
  { files: ['test/fixtures/site/pages/**/*.js'], languageOptions: { sourceType: 'script' } },
  // Invisible and control characters are what the lookalike check looks for.
  { files: ['src/chrome/agent/safety/lookalike.js'], rules: { 'no-control-regex': 'off' } },
];
