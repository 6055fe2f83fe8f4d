import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { components, cycleEdges, folderEdges, importsOf, unitOf } from './module-graph';

/**
 * The module graph (docs/decisions/module-graph.md):
 * - no NEW folder cycle: every folder edge that lies on a cycle is one of the edges listed in
 *   module-graph.allowed.json (what was there when the check came), and a listed edge that no
 *   longer closes a cycle must leave the list (the list only shrinks);
 * - no deep import: a file of another folder imports a module's file only when the module's
 *   `index.ts` (its public surface) re-exports that file;
 * - presentation flows one way: a service never imports a presenter (the listed exceptions shrink).
 */

const SRC = join(__dirname, '..', '..');
const allowed: { cycleEdges: string[]; serviceImportsPresenter: string[] } = JSON.parse(readFileSync(join(__dirname, 'module-graph.allowed.json'), 'utf8'));
const imports = importsOf(SRC);
const edges = folderEdges(imports);

/** The files a module's index.ts re-exports (`export * from './x'`, `export { a } from './x'`), relative to src/. */
function surface(unit: string): Set<string> {
  const index = join(SRC, unit, 'index.ts');
  const out = new Set<string>([`${unit}/index.ts`]);
  if (!existsSync(index)) return out;
  for (const m of readFileSync(index, 'utf8').matchAll(/^export\s+(?:\*|(?:type\s+)?\{[^}]*\})\s+from\s+'\.\/([^']+)'/gm)) out.add(`${unit}/${m[1]}.ts`);
  return out;
}

describe('the module graph', () => {
  it('finds the imports it is meant to find (a scan that finds nothing would pass vacuously)', () => {
    expect(edges.has('app -> modules/courses')).toBe(true);
    expect(edges.has('modules/lessons -> modules/courses')).toBe(true);
    expect(imports.length).toBeGreaterThan(1000);
  });

  it('has no new folder cycle, and the listed cycle edges are still cycle edges', () => {
    const now = cycleEdges(edges.keys());
    const fresh = now
      .filter((e) => !allowed.cycleEdges.includes(e))
      .map(
        (e) =>
          `${e} (${edges
            .get(e)!
            .map((i) => `${i.from}:${i.line}`)
            .join(', ')})`,
      );
    expect({ newCycleEdges: fresh }).toEqual({ newCycleEdges: [] });
    const gone = allowed.cycleEdges.filter((e) => !now.includes(e));
    // an edge that no longer closes a cycle: take it off module-graph.allowed.json
    expect({ noLongerOnACycle: gone }).toEqual({ noLongerOnACycle: [] });
  });

  it('every module exposes an index.ts, and no file imports another module past it', () => {
    const modules = readdirSync(join(SRC, 'modules')).map((d) => `modules/${d}`);
    const surfaces = new Map(modules.map((m) => [m, surface(m)]));
    const deep = imports
      .filter((i) => {
        const to = unitOf(i.to);
        return to.startsWith('modules/') && unitOf(i.from) !== to && !surfaces.get(to)!.has(i.to);
      })
      .map((i) => `${i.from}:${i.line} imports ${i.to}, not on ${unitOf(i.to)}/index.ts`);
    expect(deep).toEqual([]);
    // every module that another folder imports has a surface
    const imported = new Set(imports.filter((i) => unitOf(i.to).startsWith('modules/') && unitOf(i.from) !== unitOf(i.to)).map((i) => unitOf(i.to)));
    expect([...imported].filter((m) => !existsSync(join(SRC, m, 'index.ts'))).sort()).toEqual([]);
  });

  it('no service imports a presenter (but the listed ones, which only shrink)', () => {
    const now = [...new Set(imports.filter((i) => /\.service\.ts$/.test(i.from) && /\.presenter\.ts$/.test(i.to)).map((i) => `${i.from} -> ${i.to}`))];
    expect({ newServiceImportsPresenter: now.filter((e) => !allowed.serviceImportsPresenter.includes(e)) }).toEqual({ newServiceImportsPresenter: [] });
    expect({ noLongerThere: allowed.serviceImportsPresenter.filter((e) => !now.includes(e)) }).toEqual({ noLongerThere: [] });
  });
});

describe('the graph helpers', () => {
  it('finds the components and the edges on a cycle', () => {
    const e = ['a -> b', 'b -> c', 'c -> a', 'c -> d', 'd -> e', 'e -> d', 'x -> a'];
    expect(components(e).filter((c) => c.length > 1)).toEqual(
      expect.arrayContaining([
        ['a', 'b', 'c'],
        ['d', 'e'],
      ]),
    );
    expect(cycleEdges(e).sort()).toEqual(['a -> b', 'b -> c', 'c -> a', 'd -> e', 'e -> d']);
  });

  it('names the unit of a file', () => {
    expect(unitOf('modules/courses/courses.service.ts')).toBe('modules/courses');
    expect(unitOf('core/http/api-error.ts')).toBe('core/http');
    expect(unitOf('app.module.ts')).toBe('app');
  });
});
