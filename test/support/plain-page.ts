import type { PlainPageActivity } from '../../src/pages/plain-page-activity';

/** A plain page under way in `activity` until the test calls the answer, which ends it. */
export function plainPageUnderWay(activity: PlainPageActivity): () => Promise<void> {
  let end!: () => void;
  const page = activity.during(() => new Promise<void>((resolve) => (end = resolve)));
  return () => {
    end();
    return page;
  };
}
