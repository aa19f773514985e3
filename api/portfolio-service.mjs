// Vercel Functions: the service (functions/hosts/vercel/function.ts), bundled with the build's data by
// `npm run build` (scripts/bundle-functions.ts). vercel.json rewrites the dynamic paths here.
export { default } from '../dist/functions/vercel.mjs';
