import { defineConfig, type ConfigOf } from '../config/config-slice';

/**
 * `PAGE_READ_CPU_MS` at most: what a check's job counts on for each read, with
 * `READ_WALL_FACTOR` (`WORST_CASE_PAGES_MS`).
 */
export const MAX_PAGE_READ_MS = 10_000;

export const pagesConfig = defineConfig('pages', (read) => ({
  /** `PAGE_PROMPT_MAX_CHARS`: characters of each page's text a model reads (docs/pages.md). */
  promptMaxChars: read.integer('PAGE_PROMPT_MAX_CHARS', 20_000, 1_000, 100_000),
  /**
   * `PAGE_READ_CPU_MS`: the CPU time one page's reading may take on a reading thread before it
   * is stopped and the page is `too complex` (docs/pages.md, "Reading off the event loop").
   */
  readCpuMs: read.integer('PAGE_READ_CPU_MS', 2_000, 100, MAX_PAGE_READ_MS),
}));
export type PagesConfig = ConfigOf<typeof pagesConfig>;
