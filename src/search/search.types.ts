export interface GroundingSource {
  uri: string;
  title: string;
}
