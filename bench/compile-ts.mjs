// Compiles a benchmark written in TypeScript (`node bench/compile-ts.mjs story.bench.ts`) to
// bench/dist/, so that it drives the built server — exactly what `npm start` runs (scripts/build.mjs
// builds it) — while its source is typed against the server's source: an import of
// `../server/src/x` becomes `../../server/dist/x`, other relative imports are kept pointing at the
// same files, and the bench's own modules (bench-support.ts) are compiled beside it. Transpile only (well under a second): `npm run typecheck` type-checks the benches
// (bench/tsconfig.json: a Node program, no DOM types), and ESLint lints them with type information.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, '..');
const SERVER_SRC = path.join(ROOT, 'server', 'src');
const SERVER_DIST = path.join(ROOT, 'server', 'dist');

const name = process.argv[2];
if (!name || !name.endsWith('.ts') || !fs.existsSync(path.join(BENCH, name))) {
  console.error('usage: node bench/compile-ts.mjs <file>.ts   (a file in bench/)');
  process.exit(2);
}
const outOf = (source) => path.join(BENCH, 'dist', path.relative(BENCH, source).replace(/\.ts$/, '.js'));

/**
 * Where a relative import of `source` points from its compiled file: the server's build for
 * server/src, the compiled copy for a bench's own TypeScript (queued to be compiled too), else the
 * same file as before.
 */
function specifierFor(source, spec, queue) {
  const target = path.resolve(path.dirname(source), spec);
  const inServer = path.relative(SERVER_SRC, target);
  if (!inServer.startsWith('..') && !path.isAbsolute(inServer)) return relative(outOf(source), path.join(SERVER_DIST, inServer));
  const local = path.relative(BENCH, target);
  if (!local.startsWith('..') && !path.isAbsolute(local) && fs.existsSync(`${target}.ts`)) {
    queue.push(`${target}.ts`);
    return relative(outOf(source), outOf(`${target}.ts`).replace(/\.js$/, ''));
  }
  return relative(outOf(source), target);
}

function relative(from, to) {
  const rel = path.relative(path.dirname(from), to).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Rewrites the relative specifiers of import/export declarations and dynamic imports. */
const relocate = (source, queue) => (context) => (file) => {
  const f = context.factory;
  const moved = (lit) => (ts.isStringLiteral(lit) && lit.text.startsWith('.') ? f.createStringLiteral(specifierFor(source, lit.text, queue)) : lit);
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      return f.updateImportDeclaration(node, node.modifiers, node.importClause, moved(node.moduleSpecifier), node.attributes);
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      return f.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, moved(node.moduleSpecifier), node.attributes);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      const [first, ...rest] = node.arguments;
      return f.updateCallExpression(node, node.expression, node.typeArguments, [moved(first), ...rest.map((a) => ts.visitNode(a, visit))]);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitNode(file, visit);
};

// The options bench/tsconfig.json type-checks with, emitting CommonJS (as the server's build does).
const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(BENCH, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, BENCH);
const options = { ...config.options };
delete options.moduleResolution; // for type-checking only; transpiling resolves nothing
// The bench, then every bench-local module it imports (each once).
const queue = [path.join(BENCH, name)];
const done = new Set();
while (queue.length) {
  const source = queue.shift();
  if (done.has(source)) continue;
  done.add(source);
  const result = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
    fileName: source,
    reportDiagnostics: true,
    compilerOptions: { ...options, noEmit: false, module: ts.ModuleKind.CommonJS, sourceMap: false },
    transformers: { before: [relocate(source, queue)] },
  });
  if (result.diagnostics?.length) {
    console.error(ts.formatDiagnostics(result.diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
    process.exit(1);
  }
  fs.mkdirSync(path.dirname(outOf(source)), { recursive: true });
  fs.writeFileSync(outOf(source), result.outputText);
}
