import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'wailsjs', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      ...tseslint.configs.strict,
      reactHooks.configs.flat.recommended,
    ],
    languageOptions: { ecmaVersion: 2023, globals: globals.browser },
    rules: {
      // The recommended config only warns; a missing dependency is a bug.
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The Wails bindings exist only in the desktop window: one module,
    // src/platform/desktop.ts (loaded only there), speaks to them, and every
    // other module goes through the Platform it makes.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['src/platform/desktop.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: 'wailsjs',
              message:
                'Only src/platform/desktop.ts may import the Wails bindings; use the Platform (usePlatform) instead.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/wailsjs/]',
          message:
            'Only src/platform/desktop.ts may import the Wails bindings; use the Platform (usePlatform) instead.',
        },
      ],
    },
  },
  {
    files: ['e2e/**/*.{js,mjs}', 'e2e-desktop/**/*.{js,mjs}', 'bench/**/*.mjs', 'scripts/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2023, globals: globals.node },
  },
  {
    // End-to-end tests also hold functions that run in the page (page.evaluate).
    files: ['e2e/**/*.{js,mjs}'],
    languageOptions: { globals: globals.browser },
  },
);
