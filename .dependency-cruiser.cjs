/**
 * `npm run lint` runs this on src/, console/, test/, bench/ and scripts/: no import cycle among
 * their files, type-only imports included (they tie files together as much as value imports do,
 * and ESLint's import-x/no-cycle does not see them).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Files import each other in a circle; move the shared vocabulary to a leaf file.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
  },
};
