// @ts-check
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The shared layers under src/: every other folder there is a feature (docs/architecture.md). */
const SHARED_LAYERS = ['common', 'config', 'database'];

/**
 * The feature folders, read from src/ so that a new feature is inside the layer rule without
 * editing a list here.
 */
const FEATURES = readdirSync(join(import.meta.dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !SHARED_LAYERS.includes(entry.name))
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'scratch/**',
      'data/**',
      'jest.config.js',
      'eslint.config.mjs',
    ],
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [eslint.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // Finds tsconfig.json (src/, test/, bench/, migrations/, console/build.ts, the console's
        // unit specs) or, for the console's browser code, console/app/tsconfig.json, for each
        // linted file.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // House style (STYLE.md, Habits).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        // Nest resolves injected constructor parameters from decorator metadata, which needs
        // runtime values. With experimentalDecorators + emitDecoratorMetadata in tsconfig.json
        // (read through typed linting) the rule skips files that use decorators, so it never
        // turns an injected class into a type-only import:
        // https://typescript-eslint.io/blog/changes-to-consistent-type-imports-with-decorators
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Nest interface methods (guards, handlers, lifecycle hooks) are often async without awaiting.
      '@typescript-eslint/require-await': 'off',
      // Nest modules and DTO holders are classes without members by design.
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      // `expect(service.method).toHaveBeenCalled()` and jest.fn() references are fine in tests.
      '@typescript-eslint/unbound-method': 'off',
      // supertest's `response.body` is `any`: reading it in assertions is what tests do.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'warn',
      '@typescript-eslint/no-unsafe-return': 'warn',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // Layers (STYLE.md, "Layers you can see"): nothing points up. Import cycles, type-only imports
  // included, are dependency-cruiser's (.dependency-cruiser.cjs, run by `npm run lint`).
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      // `src/config/` and `src/common/` import no feature; `src/search/` knows nothing of tasks or
      // executions. `src/database/` is shared infrastructure that features may use.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...['config', 'common'].map((layer) => ({
              target: `./src/${layer}`,
              from: FEATURES.map((feature) => `./src/${feature}`),
              message: `src/${layer}/ is shared by the features and imports none of them.`,
            })),
            {
              target: './src/search',
              from: ['./src/tasks', './src/executions'],
              message: 'Search providers know nothing of tasks or executions.',
            },
          ],
        },
      ],
    },
  },
  // Size (docs/architecture.md): a file in src/ holds at most 400 lines and a class takes at most
  // 8 constructor parameters; past that it is doing several jobs and is cut by role. Specs are
  // outside the line limit: one spec follows one unit however many cases it needs.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MethodDefinition[kind='constructor'] > FunctionExpression[params.length>8]",
          message: 'A class takes at most 8 constructor parameters: cut it by role.',
        },
      ],
    },
  },
  // Last: turns off every stylistic rule that Prettier owns.
  prettier,
);
