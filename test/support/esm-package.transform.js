// @ts-check
/**
 * Jest's CommonJS runtime cannot load ES-module-only packages (@nestjs/terminus 12), which Node
 * itself loads through require() since 20.19. This turns such a package's files into CommonJS
 * for the tests only; `import.meta` has CommonJS equivalents for the uses those packages make.
 */
const { createHash } = require('node:crypto');
const ts = require('typescript');

/** @type {import('@jest/transform').SyncTransformer} */
module.exports = {
  process(source, filename) {
    const commonJsSource = source
      .replace(/const require = createRequire\(import\.meta\.url\);/g, '')
      .replace(/import\.meta\.url/g, "require('node:url').pathToFileURL(__filename).href")
      .replace(/import\.meta\.resolve\(/g, 'require.resolve(')
      .replace(/import\.meta\.dirname/g, '__dirname');
    const { outputText } = ts.transpileModule(commonJsSource, {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        allowJs: true,
      },
    });
    return { code: outputText };
  },
  getCacheKey(source, filename) {
    return createHash('sha256')
      .update('esm-package-1')
      .update(filename)
      .update(source)
      .digest('hex');
  },
};
