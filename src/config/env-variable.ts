/**
 * One environment variable as its readers see it: `.env.example` has `# <description>` above
 * `NAME=<default>`, and the README's Configuration table has the row
 * `| \`NAME\` | \`<default>\` | <description> |` (`unset` when it has no default). Search providers
 * and channels declare theirs in their definitions, and a test holds both files to them.
 */
export interface EnvVariable {
  readonly name: string;
  /** Markdown, no full stop at the end. */
  readonly description: string;
  /** The value that unset stands for; absent: unset means unset. */
  readonly default?: string;
}
