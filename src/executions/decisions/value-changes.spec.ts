import type { OutputSchema } from '../../search/output-schema';
import { diffValues } from './value-changes';

const schema: OutputSchema = {
  type: 'object',
  properties: {
    price: { type: 'number' },
    stage: { type: 'string' },
    sold_out: { type: 'boolean' },
  },
};

describe('diffValues', () => {
  it('should list the changed fields in schema order when values differ', () => {
    expect(
      diffValues(
        schema,
        'key-1',
        { price: 12, stage: 'stable', sold_out: false },
        { values: { price: 10, stage: 'beta', sold_out: false }, schemaKey: 'key-1' },
      ),
    ).toEqual([
      { field: 'price', before: 10, after: 12 },
      { field: 'stage', before: 'beta', after: 'stable' },
    ]);
  });

  it('should report nothing when there is no previous value (the baseline)', () => {
    expect(diffValues(schema, 'key-1', { price: 1, stage: null, sold_out: null }, null)).toEqual(
      [],
    );
  });

  it('should start a new baseline when the schema changed', () => {
    expect(
      diffValues(
        schema,
        'key-2',
        { price: 12, stage: null, sold_out: null },
        { values: { price: 10 }, schemaKey: 'key-1' },
      ),
    ).toEqual([]);
  });

  it('should report a value that appeared or went away when it is null on one side', () => {
    expect(
      diffValues(
        schema,
        'k',
        { price: null, stage: 'beta', sold_out: null },
        { values: { price: 3, stage: 'beta', sold_out: null }, schemaKey: 'k' },
      ),
    ).toEqual([{ field: 'price', before: 3, after: null }]);
  });
});
