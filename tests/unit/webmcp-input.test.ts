import { describe, expect, it } from 'vitest';
import { inputJsonSchema } from '../../functions/mcp/tool-registry.ts';
import { searchQuery } from '../../functions/search/schema.ts';
import { argumentTypeProblem } from '../../src/scripts/webmcp-input.ts';

/** search_portfolio's input schema, as the build ships it to the page (src/lib/webmcp-tools.ts). */
const SEARCH = inputJsonSchema(searchQuery);

describe('argumentTypeProblem', () => {
  it('passes arguments of the declared types, and leaves out and undeclared ones to the API', () => {
    expect(argumentTypeProblem(SEARCH, { q: 'leakhound', type: 'project', limit: 5 })).toBeUndefined();
    expect(argumentTypeProblem(SEARCH, {})).toBeUndefined();
    expect(argumentTypeProblem(SEARCH, { q: '', other: 5 })).toBeUndefined();
  });

  it('names the first argument whose JSON type the schema does not declare', () => {
    expect(argumentTypeProblem(SEARCH, { q: 5 })).toBe('Argument "q" must be a string.');
    expect(argumentTypeProblem(SEARCH, { q: ['a'] })).toBe('Argument "q" must be a string.');
    expect(argumentTypeProblem(SEARCH, { q: null })).toBe('Argument "q" must be a string.');
    expect(argumentTypeProblem(SEARCH, { q: 'a', limit: '5' })).toBe('Argument "limit" must be an integer.');
    expect(argumentTypeProblem(SEARCH, { q: 'a', limit: 2.5 })).toBe('Argument "limit" must be an integer.');
    expect(argumentTypeProblem(SEARCH, { q: 'a', type: 1 })).toBe('Argument "type" must be a string.');
  });

  it('reads a list of types', () => {
    const schema = { properties: { id: { type: ['string', 'integer'] } } };
    expect(argumentTypeProblem(schema, { id: 3 })).toBeUndefined();
    expect(argumentTypeProblem(schema, { id: true })).toBe('Argument "id" must be a string or an integer.');
  });
});
