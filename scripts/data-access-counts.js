#!/usr/bin/env node
/*
 * The data-access counts of issue 27 (docs/decisions/data-access.md), measured with the
 * TypeScript checker rather than grep:
 *  - untyped raw queries: calls of a method named `query` (ds.query, m.query, scoped(...).query,
 *    pool reads...) in src/ (specs left out) whose rows reach the code as `any`: the call's
 *    awaited type is `any` (or any[]) and its use site gives no type (no annotated variable, no
 *    `as`, no type argument, or only `any` ones); a statement whose answer is unused is not counted;
 *  - hand-written organization predicates: `organization_id = $<n>` in src/ (scoped() writes `$org`);
 *  - organization values bound by position: an `INSERT INTO t (..., organization_id, ...)` whose
 *    VALUES tuple or SELECT list gives that column a `$<n>` (scoped() writes `$org`); a statement
 *    whose values are built in code (`VALUES ${tuples}`) shows no value and is not counted.
 * Usage: node scripts/data-access-counts.js [root] [--list]   (--list: every site, file:line)
 * From code: require('scripts/data-access-counts.js').dataAccessCounts(root) (the spec
 * src/core/architecture/data-access-counts.spec.ts expects 0 of both).
 */
const ts = require('typescript');
const path = require('node:path');
const fs = require('node:fs');

/** The counts for the tree at `root`, and every site counted (file relative to root, 1-based line). */
function dataAccessCounts(root) {
  const files = [];
  (function walk(d) {
    for (const n of fs.readdirSync(d)) {
      const p = path.join(d, n);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.ts') && !n.endsWith('.spec.ts')) files.push(p);
    }
  })(path.join(root, 'src'));

  const program = ts.createProgram(files, {
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    skipLibCheck: true,
    esModuleInterop: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const isAnyish = (t) => !!(t.flags & ts.TypeFlags.Any) || (checker.isArrayType(t) && !!(checker.getTypeArguments(t)[0].flags & ts.TypeFlags.Any));

  /** Whether the use site of a query's result gives it a type. */
  function typedAtUse(call) {
    if (call.typeArguments && call.typeArguments.length) return !isAnyish(checker.getTypeFromTypeNode(call.typeArguments[0]));
    let n = call.parent;
    for (;;) {
      while (n && (ts.isAwaitExpression(n) || ts.isParenthesizedExpression(n))) n = n.parent;
      // `.catch(...)` / `.finally(...)` on the statement's promise: the answer goes on to the same use site
      if (n && ts.isPropertyAccessExpression(n) && (n.name.text === 'catch' || n.name.text === 'finally') && ts.isCallExpression(n.parent) && n.parent.expression === n) n = n.parent.parent;
      else break;
    }
    if (!n) return false;
    // a statement whose answer is not used (a write run for its effect) hands no rows to the code
    if (ts.isExpressionStatement(n) || ts.isVoidExpression(n)) return true;
    const named = (typeNode) => !isAnyish(checker.getTypeFromTypeNode(typeNode));
    if (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) return named(n.type);
    if (ts.isVariableDeclaration(n) && n.type) return named(n.type);
    if (ts.isReturnStatement(n) || ts.isArrowFunction(n)) {
      // a function whose declared return type is not any
      let f = n;
      while (f && !ts.isFunctionLike(f)) f = f.parent;
      if (f && f.type) {
        const t = checker.getTypeFromTypeNode(f.type);
        const awaited = checker.getAwaitedType(t) ?? t;
        return !isAnyish(awaited) && !(t.flags & ts.TypeFlags.Any);
      }
    }
    return false;
  }

  const srcDir = path.join(root, 'src');
  const untypedSites = [];
  let queryCalls = 0;
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(srcDir) || sf.fileName.endsWith('.spec.ts')) continue;
    (function visit(node) {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'query') {
        queryCalls++;
        const t = checker.getTypeAtLocation(node);
        const awaited = checker.getAwaitedType(t) ?? t;
        if (isAnyish(awaited) && !typedAtUse(node)) {
          untypedSites.push({ file: path.relative(root, sf.fileName), line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
        }
      }
      ts.forEachChild(node, visit);
    })(sf);
  }

  const orgSites = [];
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    for (const m of text.matchAll(/organization_id\s*=\s*\$\d+/g)) {
      orgSites.push({ file: path.relative(root, f), line: text.slice(0, m.index).split('\n').length });
    }
  }
  const orgValueSites = [];
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    for (const m of text.matchAll(/INSERT\s+INTO\s+[\w${}.]+\s*\(([^()]*)\)\s*(?:VALUES\s*\(|SELECT\s)/g)) {
      const k = m[1].split(',').findIndex((c) => c.trim() === 'organization_id');
      if (k < 0) continue;
      if (positionalValue(text.slice(m.index + m[0].length), k)) orgValueSites.push({ file: path.relative(root, f), line: text.slice(0, m.index).split('\n').length });
    }
  }
  const filesOf = (sites) => new Set(sites.map((s) => s.file)).size;
  return {
    queryCalls,
    untypedQueryCalls: untypedSites.length,
    filesWithUntyped: filesOf(untypedSites),
    handWrittenOrgPredicates: orgSites.length,
    filesWithHandWrittenOrgPredicates: filesOf(orgSites),
    positionalOrgValues: orgValueSites.length,
    untypedSites,
    orgSites,
    orgValueSites,
  };
}

/** Whether the k-th expression of a VALUES tuple / SELECT list (the text after its opening) is a bare `$<n>`. */
function positionalValue(rest, k) {
  const items = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < rest.length && rest[i] !== '`'; i++) {
    const c = rest[i];
    if (depth === 0 && (c === ')' || /^\s+FROM\s/.test(rest.slice(i, i + 7)))) break;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      items.push(cur);
      cur = '';
    } else cur += c;
  }
  items.push(cur);
  return k < items.length && /^\$\d+$/.test(items[k].trim());
}

module.exports = { dataAccessCounts };

if (require.main === module) {
  const arg = process.argv[2];
  const root = path.resolve(arg && !arg.startsWith('--') ? arg : path.join(__dirname, '..'));
  const { untypedSites, orgSites, orgValueSites, ...counts } = dataAccessCounts(root);
  console.log(JSON.stringify(counts));
  if (process.argv.includes('--list')) {
    for (const s of untypedSites) console.log(`untyped query\t${s.file}:${s.line}`);
    for (const s of orgSites) console.log(`organization_id = $n\t${s.file}:${s.line}`);
    for (const s of orgValueSites) console.log(`organization_id value $n\t${s.file}:${s.line}`);
  }
}
