export interface GroundingSource {
  uri: string;
  title: string;
}

export type NotifyBehavior = 'once' | 'always';
