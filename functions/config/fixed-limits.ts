// Limits that no variable changes, kept beside the configuration because the descriptions of
// its variables cite them (env-variables.ts), and the configuration imports nothing above it.

/**
 * The least SANDBOX_STORAGE_BYTES may be: more than the largest contact message takes (each UTF-16
 * unit the length limits of contact/schema.ts count is at most 3 bytes in UTF-8), so a new message
 * always fits its share.
 */
export const SANDBOX_STORAGE_MIN_BYTES = 64 * 1024;

/** Runs of one job at most: a job whose instance died is run again by another, then failed as interrupted. */
export const JOB_MAX_ATTEMPTS = 3;

/**
 * Body bytes one counted request covers. Requests are far smaller; a larger body counts one
 * request per started share, since reading it costs the server more than one request's worth
 * (`npm run bench:abuse`).
 */
export const BODY_BYTES_PER_REQUEST = 16 * 1024;
