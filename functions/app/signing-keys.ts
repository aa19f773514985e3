import type { Config } from '../config/env.ts';
import { FormTokens } from '../contact/form-token.ts';
import { AccessTokens } from '../keys/access-token.ts';
import { CursorCodec } from '../projects/cursor.ts';
import type { SecretStore } from '../state/storage.ts';

/** What the service signs with: cursors, the contact form's fill-time tokens, OAuth access tokens. */
export interface Signers {
  cursors: CursorCodec;
  formTokens: FormTokens;
  accessTokens: AccessTokens;
}

/**
 * The signers, made from the deployment's secrets when first needed, all of them read in one
 * query: an answer made only from the build (a project, a document, a search) needs none, so a
 * function instance that serves only those never opens a database connection. A failed read
 * (the database down) is tried again by the next caller.
 */
export class SigningKeys {
  /** The signers once loaded; undefined before. */
  current: Signers | undefined;
  private loading: Promise<Signers> | undefined;

  constructor(
    private readonly secrets: SecretStore,
    private readonly config: Pick<Config, 'contactMinFillSeconds' | 'apiOrigin'>,
  ) {}

  load(): Promise<Signers> {
    if (this.current !== undefined) return Promise.resolve(this.current);
    return (this.loading ??= this.secrets.loadAll().then(
      (keys) =>
        (this.current = {
          cursors: new CursorCodec(keys.cursor),
          formTokens: new FormTokens(
            keys.form,
            this.config.contactMinFillSeconds * 1000,
            this.config.apiOrigin === null,
          ),
          accessTokens: new AccessTokens(keys.token),
        }),
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    ));
  }
}
