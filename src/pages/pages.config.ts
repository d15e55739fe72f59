import { defineConfig, type ConfigOf } from '../config/config-slice';

export const pagesConfig = defineConfig('pages', (read) => ({
  /** `PAGE_PROMPT_MAX_CHARS`: characters of each page's text a model reads (docs/pages.md). */
  promptMaxChars: read.integer('PAGE_PROMPT_MAX_CHARS', 20_000, 1_000, 100_000),
}));
export type PagesConfig = ConfigOf<typeof pagesConfig>;
