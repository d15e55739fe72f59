import { defineConfig, type ConfigOf } from '../config/config-slice';

export const pagesConfig = defineConfig('pages', (read) => ({
  /** `PAGE_PROMPT_MAX_CHARS`: characters of each page's text a model reads (docs/pages.md). */
  promptMaxChars: read.integer('PAGE_PROMPT_MAX_CHARS', 20_000, 1_000, 100_000),
  /**
   * `PAGE_READ_CPU_MS`: how long one page's reading may take on a reading thread before it is
   * stopped and the page is `too complex` (docs/pages.md, "Reading off the event loop").
   */
  readCpuMs: read.integer('PAGE_READ_CPU_MS', 2_000, 100, 60_000),
}));
export type PagesConfig = ConfigOf<typeof pagesConfig>;
