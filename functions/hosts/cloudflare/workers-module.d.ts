/**
 * The part of workerd's `cloudflare:workers` module the Worker uses: its bindings, importable at
 * module scope (Cloudflare docs, changelog 2025-03-17, "Import env to access bindings in your
 * Worker's global scope"). Left external by the bundle (functions/hosts/cloudflare/bundle.ts).
 */
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
}
