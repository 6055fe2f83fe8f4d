/**
 * Storage keys allow `[A-Za-z0-9._ ()+-]` in path segments (core/storage assertKey). Names from
 * URLs and zip entries are mapped into that set reversibly: every other byte of the UTF-8 form
 * (and `+` itself) becomes `+XX`.
 */
export function keySegment(segment: string): string {
  let out = '';
  for (const byte of Buffer.from(segment, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9._ ()-]/.test(c) ? c : `+${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (out === '.' || out === '..' || out === '') out = out.replace(/\./g, '+2E') || '+';
  return out;
}

/** A validated relative path (no `..`, no empty segments) as a storage key suffix. */
export function keyPath(relative: string): string {
  return relative.split('/').map(keySegment).join('/');
}

/** A safe file name for a re-hosted asset: the URL's last segment, else `file`, with an extension. */
export function assetFileName(url: string, ext: string | null): string {
  let name = '';
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    try {
      name = decodeURIComponent(last);
    } catch {
      name = last;
    }
  } catch {
    name = '';
  }
  name = name
    .replace(/[^A-Za-z0-9._ ()-]+/g, '_')
    .replace(/^[.\s_]+/, '')
    .slice(0, 120)
    .trim();
  if (!name) name = 'file';
  if (ext && !/\.[A-Za-z0-9]{1,8}$/.test(name)) name = `${name}.${ext}`;
  return name;
}
