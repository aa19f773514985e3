/**
 * Path templates in OpenAPI style (`/api/v1/projects/{slug}`), matched segment by segment.
 * A parameter matches one non-empty segment and is percent-decoded; a segment that does not
 * decode (a stray `%`) does not match, so it ends as a 404 rather than an exception.
 */
export class RoutePattern {
  readonly template: string;
  private readonly segments: readonly string[];
  /** The template up to its first parameter: a path that does not start with it cannot match. */
  private readonly prefix: string;
  private readonly hasParameters: boolean;

  constructor(template: string) {
    this.template = template;
    this.segments = template.split('/');
    const brace = template.indexOf('{');
    this.hasParameters = brace !== -1;
    this.prefix = this.hasParameters ? template.slice(0, brace) : template;
  }

  /** The decoded parameters when `path` matches, otherwise null. */
  match(path: string): Record<string, string> | null {
    // The router tries every route for every request: most are told apart without splitting the path.
    if (!this.hasParameters) return path === this.template ? {} : null;
    if (!path.startsWith(this.prefix)) return null;
    const parts = path.split('/');
    if (parts.length !== this.segments.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const expected = this.segments[i] as string;
      const actual = parts[i] as string;
      if (expected.startsWith('{')) {
        if (actual === '') return null;
        try {
          params[expected.slice(1, -1)] = decodeURIComponent(actual);
        } catch {
          return null;
        }
      } else if (expected !== actual) {
        return null;
      }
    }
    return params;
  }
}
