import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * An import a file may not make: its path matches regex. ESLint's own
 * no-restricted-imports checks import and export declarations, and
 * no-restricted-syntax the import() expressions (whose regex cannot hold
 * a slash, so it is written \x2F there).
 */
function restrict(...restrictions) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: restrictions.map(({ regex, message }) => ({ regex, message })) },
    ],
    'no-restricted-syntax': [
      'error',
      ...restrictions.map(({ regex, message }) => ({
        selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`,
        message,
      })),
    ],
  };
}

/**
 * The Wails bindings exist only in the desktop window: one module,
 * src/platform/desktop.ts (loaded only there), speaks to them, and every
 * other module goes through the Platform it makes.
 */
const wails = {
  regex: 'wailsjs',
  message:
    'Only src/platform/desktop.ts may import the Wails bindings; use the Platform (usePlatform) instead.',
};

/** Any path into src/features/. */
const anyFeature = {
  regex: '(^|/)features(/|$)',
  message:
    'src/shared, src/platform and src/gen import no feature: move what they need from it to src/shared/.',
};

/** The app's root (src/app.tsx, src/main.tsx), which imports the features. */
const appRoot = {
  regex: '^(\\.\\./)+(app|main)(\\.tsx)?$',
  message: 'Only src/main.tsx and the tests import the app (src/app.tsx); it imports the features.',
};

/**
 * Another feature, seen from a file depth folders below its feature's
 * folder (0: src/features/<x>/file.ts): a path that climbs depth + 1 times
 * is in src/features/ and, unless it climbs further (to src/shared/ and the
 * like), goes down into another feature.
 */
function otherFeature(depth) {
  return {
    regex: `^(\\.\\./){${depth + 1}}(?!\\.\\./)|(^|/)features/`,
    message: 'A feature imports no other feature: move what both need to src/shared/.',
  };
}

/** How deep below its feature's folder a file may sit and still be checked. */
const maxFeatureDepth = 3;

/**
 * The import zones (docs: STYLE.md, feature folders): a feature
 * (src/features/<x>/) imports no other feature, nor the app; src/shared/,
 * src/platform/ and src/gen/ import no feature. Each rule names the whole
 * list, since a later setting of a rule replaces an earlier one.
 */
function importZones() {
  const features = Array.from({ length: maxFeatureDepth + 1 }, (_, depth) => ({
    files: [`src/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: restrict(wails, otherFeature(depth), appRoot),
  }));
  return [
    {
      files: ['**/*.{ts,tsx,js,mjs}'],
      ignores: ['src/platform/desktop.ts'],
      rules: restrict(wails),
    },
    ...features,
    {
      files: ['src/{shared,platform,gen}/**/*.{ts,tsx}'],
      ignores: ['src/platform/desktop.ts'],
      rules: restrict(wails, anyFeature, appRoot),
    },
    { files: ['src/platform/desktop.ts'], rules: restrict(anyFeature, appRoot) },
  ];
}

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
  // The Wails bindings, and the import zones of src/ (none outside it).
  ...importZones(),
  {
    // bench/ is the repository's (../bench), linted from the root with -c (npm run lint).
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
