import { execFileSync } from 'node:child_process';

/** One made-up file and the one rule of eslint.config.mjs it is linted with. */
interface LintCase {
  filePath: string;
  text: string;
  ruleId: string;
}

/**
 * Lints the cases with the project's eslint.config.mjs, each with its rule only and without type
 * information. ESLint loads that config with a dynamic import, which Jest's module sandbox does
 * not allow, so the linting runs in a child Node process.
 */
function lint(cases: LintCase[]): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    const cases = JSON.parse(process.argv[1]);
    const results = [];
    for (const { filePath, text, ruleId } of cases) {
      const eslint = new ESLint({
        ruleFilter: (rule) => rule.ruleId === ruleId,
        overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
      });
      const [result] = await eslint.lintText(text, { filePath });
      results.push(result.messages.map((message) => message.message));
    }
    process.stdout.write(JSON.stringify(results));
  `;
  const output = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify(cases)],
    { cwd: process.cwd(), encoding: 'utf8' },
  );
  return JSON.parse(output) as string[][];
}

/** A class whose constructor takes `count` injected parameters. */
function classWithParameters(count: number): string {
  const parameters = Array.from({ length: count }, (_, i) => `private readonly p${i}: number`);
  return `export class Crowded {\n  constructor(${parameters.join(', ')}) {}\n}\n`;
}

/** A file of `count` lines. */
function fileOfLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';
}

describe('eslint.config.mjs', () => {
  let messages: string[][];

  const cases: Record<string, LintCase> = {
    commonImportsPages: {
      filePath: 'src/common/layer-probe.ts',
      text: "import { PagesModule } from '../pages/pages.module';\nexport const probe = PagesModule;\n",
      ruleId: 'import-x/no-restricted-paths',
    },
    configImportsMetrics: {
      filePath: 'src/config/layer-probe.ts',
      text: "export * from '../metrics/metrics.module';\n",
      ruleId: 'import-x/no-restricted-paths',
    },
    commonImportsDatabase: {
      filePath: 'src/common/layer-probe.ts',
      text: "export * from '../database/sql-rows';\n",
      ruleId: 'import-x/no-restricted-paths',
    },
    nineParameters: {
      filePath: 'src/tasks/size-probe.ts',
      text: classWithParameters(9),
      ruleId: 'no-restricted-syntax',
    },
    eightParameters: {
      filePath: 'src/tasks/size-probe.ts',
      text: classWithParameters(8),
      ruleId: 'no-restricted-syntax',
    },
    longFile: { filePath: 'src/tasks/size-probe.ts', text: fileOfLines(401), ruleId: 'max-lines' },
    fullFile: { filePath: 'src/tasks/size-probe.ts', text: fileOfLines(400), ruleId: 'max-lines' },
    longSpec: {
      filePath: 'src/tasks/size-probe.spec.ts',
      text: fileOfLines(401),
      ruleId: 'max-lines',
    },
  };
  const names = Object.keys(cases);
  const result = (name: string): string[] => messages[names.indexOf(name)];

  beforeAll(() => {
    messages = lint(names.map((name) => cases[name]));
  });

  it('should refuse an import of a feature from the shared layers, whichever folder it is', () => {
    expect(result('commonImportsPages')).toEqual([
      expect.stringContaining('src/common/ is shared by the features and imports none of them.'),
    ]);
    expect(result('configImportsMetrics')).toEqual([
      expect.stringContaining('src/config/ is shared by the features and imports none of them.'),
    ]);
  });

  it('should let src/common use src/database, a shared layer', () => {
    expect(result('commonImportsDatabase')).toEqual([]);
  });

  it('should refuse a class with more than 8 constructor parameters in src/', () => {
    expect(result('nineParameters')).toEqual([
      'A class takes at most 8 constructor parameters: cut it by role.',
    ]);
    expect(result('eightParameters')).toEqual([]);
  });

  it('should refuse a file over 400 lines in src/, specs aside', () => {
    expect(result('longFile')).toEqual([expect.stringContaining('Maximum allowed is 400')]);
    expect(result('fullFile')).toEqual([]);
    expect(result('longSpec')).toEqual([]);
  });
});
