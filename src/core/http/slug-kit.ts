/**
 * The URL slug of a name: accents folded, lowercase letters and digits, every other run of
 * characters one dash, no dash at either end, at most `max` characters; `fallback` when nothing is left.
 */
export function slugOf(name: string, max: number, fallback: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return s || fallback;
}
