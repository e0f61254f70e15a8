// ESLint for the web app: the recommended JavaScript, TypeScript and React
// hooks rules, plus the import rules that keep the feature-folder layout
// honest (as bulletproof-react does):
//   - no import cycles (import-x/no-cycle, dynamic imports included);
//   - the shared folders (components, lib, stores, i18n, test) import neither
//     a feature nor the app shell;
//   - a feature imports no app-shell module, and of another feature only its
//     public entry point, features/<name>/index.ts.
//   - file names say what a file holds: a component module (.tsx) is named
//     in PascalCase after its main component, any other module (.ts) in
//     camelCase, so no feature has a parts.tsx or a ui.tsx (local/file-naming).
//   - form controls are the shared Input, Select, Textarea and Field: no raw
//     <input>, <select> or <textarea> outside src/components.
// Run with `npm run lint` (no warnings allowed) and `npm run cycles`.
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

const SHARED = ['components', 'lib', 'stores', 'i18n', 'test']

// The file-naming rule, kept here: one check on each file's name.
const PASCAL = /^[A-Z][A-Za-z0-9]*$/
const CAMEL = /^[a-z][A-Za-z0-9]*$/
const fileNaming = {
  meta: { type: 'suggestion', schema: [], messages: { name: '{{file}}: {{want}}' } },
  create(context) {
    const file = context.filename.split(/[\\/]/).pop()
    const [stem, ...rest] = file.split('.')
    const kind = rest.join('.')
    let want = ''
    if (kind === 'tsx' && stem !== 'main' && !PASCAL.test(stem)) {
      want = 'a component module is named in PascalCase after its main component (ReviewPanel.tsx)'
    } else if (kind === 'ts' && !CAMEL.test(stem)) {
      want = 'a module that is not a component is named in camelCase (useLivePreview.ts, api.ts)'
    }
    return {
      Program(node) {
        if (want) context.report({ node, messageId: 'name', data: { file, want } })
      },
    }
  },
}

const layerZones = [
  ...SHARED.map((dir) => ({
    target: `./src/${dir}`,
    from: ['./src/features', './src/app'],
    message: 'Shared code imports neither a feature nor the app shell: move what both need into components or lib.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'A feature does not import the app shell: what it needs from there belongs in components or lib.',
  },
]

// One zone per pair of features: only the other feature's index.ts is reachable.
const featureZones = features.flatMap((feature) =>
  features
    .filter((other) => other !== feature)
    .map((other) => ({
      target: `./src/features/${feature}`,
      from: `./src/features/${other}`,
      except: ['./index.ts'],
      message: `Import ${other}'s public entry point (@/features/${other}), or move the shared code into components or lib.`,
    })),
)

export default tseslint.config(
  { ignores: ['dist/', 'dev-dist/', 'node_modules/', 'public/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a value left out on purpose (a rest sibling, an unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Best-effort cleanup (killing a process that may be gone) ignores its error on purpose.
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle follows imports through files it parses itself: it needs the TypeScript parser and extensions.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...layerZones, ...featureZones] }],
    },
  },
  {
    // Tests are named after what they test (pulls.test.tsx: the pulls
    // screens); the shared test helpers in src/test are plain modules.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/test/**', 'src/**/*.d.ts'],
    plugins: { local: { rules: { 'file-naming': fileNaming } } },
    rules: { 'local/file-naming': 'error' },
  },
  {
    // Form controls come from components (Input, Select, Textarea, Field), so
    // every screen gets the same styles and label/error wiring; a raw
    // <input>, <select> or <textarea> outside src/components fails lint.
    files: ['src/**/*.tsx'],
    ignores: ['src/components/**', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXOpeningElement[name.name=/^(input|select|textarea)$/]',
          message: 'Use Input, Select, Textarea (and Field for a labelled control) from @/components instead of a raw form control.',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}', 'vite.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
)
