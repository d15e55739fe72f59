export interface GroundingSource {
  uri: string;
  title: string;
}

/** How a task notifies (`notify_behavior`): what a suggestion proposes and a task keeps. */
export const NOTIFY_BEHAVIORS = ['once', 'always', 'on_change'] as const;
export type NotifyBehavior = (typeof NOTIFY_BEHAVIORS)[number];

/** What a model call is for (`monitor_model_calls_total`'s `kind`). */
export type ModelCallKind = 'check' | 'preview' | 'suggest';

/** The name of a task created or suggested without one. */
export const DEFAULT_TASK_NAME = 'New Monitor';

/** A page a page check shows the model: every page that is not an error. */
export interface PromptPage {
  /** The page's URL after redirects. */
  url: string;
  status: 'new' | 'same' | 'changed';
  title: string | null;
  /** Its text, already cut to `PAGE_PROMPT_MAX_CHARS` with a note. */
  text: string;
  /** For a `changed` page, the lines that appeared and went away. */
  added: string[];
  removed: string[];
  /** For a page read as a list of items: its new items, shown in place of its text. */
  newItems?: Array<{ title: string; url: string | null }>;
  /** The values the page declares, each read or null; absent when it declares none. */
  values?: Record<string, string | number | boolean | null>;
}
