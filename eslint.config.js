// Lint rules that catch what the type checker does not: a promise nobody awaits or catches
// (a rejection would reach the crash policy), and type-only imports written as value imports
// (they would load modules at run time for nothing).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // api/: Vercel's function entries, one-line re-exports of bundles that exist only after `npm run build`.
  { ignores: ['dist/**', 'node_modules/**', '.astro/**', 'data/**', 'api/**', '.wrangler/**', '.netlify/**'] },
  {
    files: ['**/*.ts', '**/*.mjs'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
