import {
  MAX_COMPILED_SCHEMAS,
  OutputSchemaError,
  OutputValuesMismatchError,
  outputSchemaKey,
  readOutputValues,
  validateOutputSchema,
  valuesValidator,
  type OutputSchema,
} from './output-schema';

const SCHEMA: OutputSchema = {
  type: 'object',
  properties: {
    price: { type: 'number', description: 'Price in USD' },
    in_stock: { type: 'boolean' },
    stage: { type: 'string', enum: ['beta', 'stable'] },
    units: { type: 'integer' },
  },
  required: ['price'],
};

function reason(input: unknown): string {
  try {
    validateOutputSchema(input);
  } catch (error) {
    if (error instanceof OutputSchemaError) return error.message;
    throw error;
  }
  throw new Error('expected the schema to be refused');
}

describe('validateOutputSchema', () => {
  it('should keep a valid schema as sent when it follows every rule', () => {
    expect(validateOutputSchema(SCHEMA)).toEqual(SCHEMA);
  });

  it.each([
    ['a list', [], 'must be a JSON object'],
    [
      'another type',
      { type: 'array', properties: { a: { type: 'string' } } },
      'type must be "object"',
    ],
    [
      'no properties',
      { type: 'object', properties: {} },
      'properties must hold 1 to 20 properties',
    ],
    [
      'a nested object',
      { type: 'object', properties: { a: { type: 'object' } } },
      'property "a" must have type string, number, integer or boolean',
    ],
    [
      'a $ref',
      { type: 'object', properties: { a: { $ref: '#/x' } } },
      'property "a" may hold only type, description and enum, not "$ref" (no nesting, no $ref)',
    ],
    [
      'a bad name',
      { type: 'object', properties: { Price: { type: 'number' } } },
      'property name "Price" must match ^[a-z][a-z0-9_]{0,39}$ (lower-case letters, digits and _)',
    ],
    [
      'a long description',
      { type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(301) } } },
      'description of "a" must be at most 300 characters',
    ],
    [
      'an enum of the wrong type',
      { type: 'object', properties: { a: { type: 'integer', enum: [1, 1.5] } } },
      'every enum value of "a" must be of type integer',
    ],
    [
      'an unknown required name',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
      'required names "b", which is not a property',
    ],
    [
      'an extra top-level key',
      { type: 'object', properties: { a: { type: 'string' } }, $defs: {} },
      'only type, properties and required are allowed, not "$defs"',
    ],
  ])('should refuse the schema when it has %s', (_label, input, expected) => {
    expect(reason(input)).toBe(expected);
  });

  it('should refuse more than 20 properties when the schema lists 21', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 21 }, (_, index) => [`p${index}`, { type: 'string' }]),
    );
    expect(reason({ type: 'object', properties })).toBe('properties must hold 1 to 20 properties');
  });

  it('should refuse the schema when it is larger than 8 kB', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [
        `p${index}`,
        { type: 'string', description: 'd'.repeat(300), enum: ['a'.repeat(100), 'b'] },
      ]),
    );
    expect(reason({ type: 'object', properties })).toBe('must be at most 8192 bytes as JSON');
  });

  it('should answer at once when the schema is nested very deeply', () => {
    let deep: unknown = { type: 'string' };
    for (let index = 0; index < 10_000; index++) deep = { a: deep };
    const started = performance.now();
    expect(reason({ type: 'object', properties: { a: deep } })).toContain('property "a"');
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('readOutputValues', () => {
  it('should coerce losslessly and fill missing optional values with null when the reply is loose', () => {
    expect(readOutputValues(SCHEMA, { price: '5', in_stock: 'true', extra: 'dropped' })).toEqual({
      price: 5,
      in_stock: true,
      stage: null,
      units: null,
    });
  });

  it('should turn a number into a string when a string is declared', () => {
    const schema = validateOutputSchema({
      type: 'object',
      properties: { version: { type: 'string' } },
    });
    expect(readOutputValues(schema, { version: 2 })).toEqual({ version: '2' });
  });

  it.each([
    [{ price: 'about five' }, 'Reply does not match output_schema: "price" must be a number'],
    [{}, 'Reply does not match output_schema: "price" is required'],
    [
      { price: 1, stage: 'alpha' },
      'Reply does not match output_schema: "stage" must be one of "beta", "stable"',
    ],
    [{ price: 1, units: '2.5' }, 'Reply does not match output_schema: "units" must be an integer'],
    [[1, 2], 'Reply does not match output_schema: "values" must be a JSON object'],
  ])('should fail with a clear reason when the values are %j', (raw, message) => {
    expect(() => readOutputValues(SCHEMA, raw)).toThrow(
      new OutputValuesMismatchError(message.split(': ').slice(1).join(': ')),
    );
  });

  it('should refuse a string value longer than 1000 characters', () => {
    const schema = validateOutputSchema({
      type: 'object',
      properties: { note: { type: 'string' } },
    });
    expect(() => readOutputValues(schema, { note: 'x'.repeat(1001) })).toThrow(
      'Reply does not match output_schema: "note" must NOT have more than 1000 characters',
    );
  });

  it('should compile a schema once and keep the cache bounded when many schemas are used', () => {
    expect(valuesValidator(SCHEMA)).toBe(valuesValidator({ ...SCHEMA }));
    for (let index = 0; index < MAX_COMPILED_SCHEMAS + 5; index++) {
      valuesValidator({ type: 'object', properties: { [`p${index}`]: { type: 'string' } } });
    }
    expect(outputSchemaKey(SCHEMA)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should give a schema and an equal copy one key, and a changed schema another', () => {
    const copy = JSON.parse(JSON.stringify(SCHEMA)) as OutputSchema;
    expect(outputSchemaKey(SCHEMA)).toBe(outputSchemaKey(SCHEMA));
    expect(outputSchemaKey(copy)).toBe(outputSchemaKey(SCHEMA));
    expect(outputSchemaKey({ ...SCHEMA, required: [] })).not.toBe(outputSchemaKey(SCHEMA));
  });
});
