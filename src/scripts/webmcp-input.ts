/**
 * A WebMCP tool's arguments against the JSON types its input schema declares. A tool that sends
 * its arguments as a query string loses their types (`{q: 5}` and `{q: "5"}` read the same), so
 * it checks them here first; the API checks everything else (bounds, formats, unknown names).
 */

/** A JSON Schema (draft-07) as the page reads it from its data block: only `properties` is read. */
interface InputSchema {
  properties?: unknown;
}

/** The JSON types a property's schema declares (`type`, one name or a list); none when it declares none. */
function declaredTypes(property: unknown): string[] {
  const type = typeof property === 'object' && property !== null ? (property as { type?: unknown }).type : undefined;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((one): one is string => typeof one === 'string') : [];
}

/** Whether a value is an instance of a JSON Schema type (draft-07 validation, section 6.1.1). */
function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/**
 * Why the arguments do not fit the types the schema declares (the first argument that does not,
 * in the schema's order), or undefined when they do. Arguments the schema does not declare, and
 * ones left out, are not judged here.
 */
export function argumentTypeProblem(schema: InputSchema, input: Record<string, unknown>): string | undefined {
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    const types = declaredTypes(property);
    if (!Object.hasOwn(input, name) || input[name] === undefined || types.length === 0) continue;
    if (!types.some((one) => isOfType(input[name], one))) {
      const wanted = types.map((one) => (one === 'integer' ? 'an integer' : `a ${one}`)).join(' or ');
      return `Argument "${name}" must be ${wanted}.`;
    }
  }
  return undefined;
}
