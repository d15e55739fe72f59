import type { OutputSchema, OutputValue, OutputValues } from '../../search/output-schema';

/** One value that differs from the previous execution's (`changes`; docs/api.md, "Values, evidence, confirmation and retraction"). */
export interface ValueChange {
  field: string;
  before: OutputValue;
  after: OutputValue;
}

/** The values an execution is compared with, and the schema they were read with. */
export interface PreviousValues {
  values: OutputValues;
  /** `outputSchemaKey` of the schema they were read with (null: unknown, a new baseline). */
  schemaKey: string | null;
}

/**
 * What changed since the previous successful execution with values, in the schema's property
 * order. The first run, and the first run after the schema changed, is a baseline: nothing
 * changed.
 */
export function diffValues(
  schema: OutputSchema,
  schemaKey: string,
  current: OutputValues,
  previous: PreviousValues | null,
): ValueChange[] {
  if (previous === null || previous.schemaKey !== schemaKey) return [];
  const changes: ValueChange[] = [];
  for (const field of Object.keys(schema.properties)) {
    const before = previous.values[field] ?? null;
    const after = current[field] ?? null;
    if (before !== after) changes.push({ field, before, after });
  }
  return changes;
}
