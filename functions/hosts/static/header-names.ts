/** `access-control-allow-origin` -> `Access-Control-Allow-Origin`: how the hosts' documentation writes names in their files. */
export function displayName(name: string): string {
  return name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('-');
}
