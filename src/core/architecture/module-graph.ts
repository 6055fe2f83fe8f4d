import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The import graph of src/ by folder (docs/decisions/module-graph.md): each file belongs to a unit
 * (`modules/<name>`, `core/<name>`, or `app` for the files at src/'s top), and an import of one
 * unit's file by another's is an edge. Static imports and re-exports, `import type` included
 * (a type-only edge still ties the two folders), `require()` and `import()` of a relative path.
 */

export interface Import {
  /** the importing file, relative to src/ */
  from: string;
  /** the imported file, relative to src/ */
  to: string;
  line: number;
}

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']*)'/gm;

export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (n.endsWith('.ts')) out.push(p);
  }
  return out;
}

function resolveImport(fromFile: string, spec: string): string | null {
  const base = resolve(dirname(fromFile), spec);
  for (const c of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** The relative imports of every file under `src` (specs included when `specs`). */
export function importsOf(src: string, specs = false): Import[] {
  const out: Import[] = [];
  for (const file of sourceFiles(src)) {
    if (!specs && file.endsWith('.spec.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      const target = resolveImport(file, m[1]);
      if (!target || !target.startsWith(src + sep)) continue;
      out.push({ from: relative(src, file), to: relative(src, target), line: text.slice(0, m.index).split('\n').length });
    }
  }
  return out;
}

/** The unit of a file (relative to src/): `modules/<name>`, `core/<name>`, or `app`. */
export function unitOf(file: string): string {
  const parts = file.split(sep);
  if ((parts[0] === 'modules' || parts[0] === 'core') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return 'app';
}

/** Folder edges `A -> B` (A imports a file of B), from the imports. */
export function folderEdges(imports: Import[]): Map<string, Import[]> {
  const edges = new Map<string, Import[]>();
  for (const i of imports) {
    const a = unitOf(i.from);
    const b = unitOf(i.to);
    if (a === b) continue;
    const key = `${a} -> ${b}`;
    const list = edges.get(key) ?? [];
    list.push(i);
    edges.set(key, list);
  }
  return edges;
}

/** The strongly connected components (Tarjan) of a graph given by its edges `A -> B`. */
export function components(edges: Iterable<string>): string[][] {
  const adj = new Map<string, string[]>();
  for (const e of edges) {
    const [a, b] = e.split(' -> ');
    if (!adj.has(a)) adj.set(a, []);
    if (!adj.has(b)) adj.set(b, []);
    adj.get(a)!.push(b);
  }
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of adj.get(v)!) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      out.push(c.sort());
    }
  };
  for (const v of [...adj.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** The edges that lie on a cycle: both ends in one component of more than one unit. */
export function cycleEdges(edges: Iterable<string>): string[] {
  const list = [...edges];
  const comp = new Map<string, number>();
  components(list).forEach((c, i) => c.length > 1 && c.forEach((v) => comp.set(v, i)));
  return list.filter((e) => {
    const [a, b] = e.split(' -> ');
    return comp.has(a) && comp.get(a) === comp.get(b);
  });
}
