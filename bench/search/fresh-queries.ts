/**
 * Queries a search cache has not seen: two words from a fixed vocabulary (stack names, words of
 * the write-ups and docs, prefixes and typos), the n-th pair different for every n below
 * VOCABULARY.length², more than the server's 1,000 cached answers, so each is computed afresh.
 */
const VOCABULARY = [
  'rust',
  'search',
  'api',
  'security',
  'secret',
  'typescript',
  'python',
  'postgresql',
  'sqlite',
  'docker',
  'kubernetes',
  'react',
  'proxy',
  'cache',
  'image',
  'data',
  'pipeline',
  'stream',
  'mobile',
  'sensor',
  'contact',
  'project',
  'webhooks',
  'sandbox',
  'token',
  'cursor',
  'deploy',
  'lea',
  'sec',
  'typ',
  'kube',
  'pos',
  'serch',
  'securty',
  'kubernets',
  'databse',
  'performance',
  'latency',
  'queue',
  'map',
] as const;

/** The n-th fresh query. */
export function freshQuery(n: number): string {
  const size = VOCABULARY.length;
  return `${VOCABULARY[n % size]} ${VOCABULARY[Math.floor(n / size) % size]}`;
}
