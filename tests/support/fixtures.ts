import { ApiError } from '../../functions/http/api-error.ts';
import type { ProjectSource } from '../../functions/projects/catalog.ts';

/** A project as content/projects gives one, for unit tests that build their own catalog. */
export function projectSource(slug: string, year: number, domain: string, stack: string[]): ProjectSource {
  return { slug, year, domain, stack, title: `Project ${slug}`, description: `${slug} description text`, markdown: '' };
}

/** The ApiError a call throws or rejects with; anything else, or no error at all, fails the test. */
export async function refusal(run: () => unknown): Promise<ApiError> {
  const error: unknown = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}
