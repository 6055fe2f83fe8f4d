#!/usr/bin/env node
/*
 * The data-access counts of issue 27 (docs/decisions/data-access.md), measured with the
 * TypeScript checker rather than grep:
 *  - untyped raw queries: calls of a method named `query` (ds.query, m.query, scoped(...).query,
 *    pool reads...) in src/ (specs left out) whose rows reach the code as `any`: the call's
 *    awaited type is `any` (or any[]) and its use site gives no type (no annotated variable, no
 *    `as`, no type argument, or only `any` ones); a statement whose answer is unused is not counted;
 *  - hand-written organization predicates: `organization_id = $<n>` in src/ (scoped() writes `$org`).
 * Usage: node scripts/data-access-counts.js [root] [--list]
 */
const ts = require('typescript');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : path.join(__dirname, '..'));
const list = process.argv.includes('--list');
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
  while (n && (ts.isAwaitExpression(n) || ts.isParenthesizedExpression(n))) n = n.parent;
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

let untyped = 0;
let queries = 0;
const byFile = new Map();
for (const sf of program.getSourceFiles()) {
  if (!sf.fileName.startsWith(path.join(root, 'src')) || sf.fileName.endsWith('.spec.ts')) continue;
  (function visit(node) {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'query') {
      queries++;
      const t = checker.getTypeAtLocation(node);
      const awaited = checker.getAwaitedType(t) ?? t;
      if (isAnyish(awaited) && !typedAtUse(node)) {
        untyped++;
        const rel = path.relative(root, sf.fileName);
        byFile.set(rel, (byFile.get(rel) ?? 0) + 1);
      }
    }
    ts.forEachChild(node, visit);
  })(sf);
}

let orgPredicates = 0;
let orgFiles = 0;
for (const f of files) {
  const n = (fs.readFileSync(f, 'utf8').match(/organization_id\s*=\s*\$\d+/g) ?? []).length;
  orgPredicates += n;
  if (n) orgFiles++;
}
console.log(JSON.stringify({ queryCalls: queries, untypedQueryCalls: untyped, filesWithUntyped: byFile.size, handWrittenOrgPredicates: orgPredicates, filesWithHandWrittenOrgPredicates: orgFiles }));
if (list) for (const [f, n] of [...byFile].sort((a, b) => b[1] - a[1])) console.log(`${n}\t${f}`);
