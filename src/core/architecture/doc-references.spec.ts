import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles } from './module-graph';

/**
 * Every reference in the code resolves inside the repository (issue 27, point 5): a cited
 * convention (`CONVENTIONS §N`, `§N`) has its section in docs/conventions.md, a cited issue
 * ("issue N", "issue 25 item 7") its entry in docs/issues.md, and a cited `docs/...md` file exists.
 */

const ROOT = join(__dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');
/** generated from the published documents: their text, not ours */
const GENERATED = new Set(['core/openapi/published.generated.ts']);

export interface Reference {
  file: string;
  line: number;
  kind: 'section' | 'issue' | 'doc';
  target: string;
}

export function referencesIn(text: string, file: string): Reference[] {
  const out: Reference[] = [];
  text.split('\n').forEach((l, i) => {
    for (const m of l.matchAll(/§\s?(\d+)/g)) out.push({ file, line: i + 1, kind: 'section', target: m[1] });
    for (const m of l.matchAll(/\bissues?\s+(\d+)\b/gi)) out.push({ file, line: i + 1, kind: 'issue', target: m[1] });
    for (const m of l.matchAll(/\b(docs\/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)\b/g)) out.push({ file, line: i + 1, kind: 'doc', target: m[1] });
  });
  return out;
}

function headings(doc: string, re: RegExp): Set<string> {
  return new Set([...readFileSync(join(ROOT, doc), 'utf8').matchAll(re)].map((m) => m[1]));
}

describe('references in the code resolve inside the repository', () => {
  const refs = sourceFiles(SRC)
    .map((f) => relative(SRC, f))
    .filter((f) => !GENERATED.has(f))
    .flatMap((f) => referencesIn(readFileSync(join(SRC, f), 'utf8'), f));
  const sections = headings('docs/conventions.md', /^## §(\d+) /gm);
  const issues = headings('docs/issues.md', /^## Issue (\d+) /gm);

  it('finds the references it is meant to check (a scan that finds none would pass vacuously)', () => {
    expect(refs.filter((r) => r.kind === 'section').length).toBeGreaterThan(50);
    expect(refs.filter((r) => r.kind === 'issue').length).toBeGreaterThan(10);
    expect(refs.filter((r) => r.kind === 'doc').length).toBeGreaterThan(50);
  });

  it('every cited convention section is stated in docs/conventions.md', () => {
    expect(refs.filter((r) => r.kind === 'section' && !sections.has(r.target)).map((r) => `${r.file}:${r.line} §${r.target}`)).toEqual([]);
  });

  it('every cited issue has its entry in docs/issues.md', () => {
    expect(refs.filter((r) => r.kind === 'issue' && !issues.has(r.target)).map((r) => `${r.file}:${r.line} issue ${r.target}`)).toEqual([]);
  });

  it('every cited docs/ file exists', () => {
    expect(refs.filter((r) => r.kind === 'doc' && !existsSync(join(ROOT, r.target))).map((r) => `${r.file}:${r.line} ${r.target}`)).toEqual([]);
  });

  it('reads the three kinds of reference', () => {
    const r = referencesIn('// CONVENTIONS §11, issue 25 item 7 (docs/decisions/commerce.md).\n/* §3 */', 'x.ts');
    expect(r.map((x) => `${x.kind} ${x.target} ${x.line}`)).toEqual(['section 11 1', 'issue 25 1', 'doc docs/decisions/commerce.md 1', 'section 3 2']);
  });
});
