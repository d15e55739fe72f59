/**
 * A notification channel as the console's forms read it. A leaf: channel-list.ts, which
 * console/generate.ts writes, and channels.ts, which reads that list, both import it.
 */
export interface ChannelField {
  name: string;
  label: string;
  /** `choice`: one of `choices`; `headers`: HTTP header names and values (an object). */
  input: 'email' | 'url' | 'text' | 'password' | 'choice' | 'headers';
  choices?: readonly string[];
  optional?: boolean;
  /** What the form starts with. */
  default?: string;
  hint?: string;
}

/** A secret the service generates for a config and shows its owner. */
export interface GeneratedSecret {
  name: string;
  label: string;
}

export interface Channel {
  type: string;
  label: string;
  fields: readonly ChannelField[];
  generatedSecret?: GeneratedSecret;
}
