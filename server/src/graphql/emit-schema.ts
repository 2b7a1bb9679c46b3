/** Writes the SDL to /schema.graphql (or checks it with --check). Run from the built server. */
import fs from 'node:fs';
import path from 'node:path';
import { clientStylesSource } from '../ai/style-guard';
import { clientLimitsSource } from '../modules/shared/limits';
import { printedSchema } from './schema';

async function main(): Promise<void> {
  const file = path.resolve(__dirname, '..', '..', '..', 'schema.graphql');
  const sdl = await printedSchema();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current !== sdl) {
      console.error('schema.graphql is stale: run `npm run schema:emit` and commit it.');
      process.exit(1);
    }
    console.log('schema.graphql is up to date.');
    return;
  }
  fs.writeFileSync(file, sdl);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
  // What the client must agree with, beside the schema it uses: the limits (modules/shared/limits.ts)
  // and the immersive style defaults it re-checks tokens against (ai/style-guard.ts).
  for (const [name, source] of [
    ['limits.generated.ts', clientLimitsSource()],
    ['styles.generated.ts', clientStylesSource()],
  ]) {
    const out = path.resolve(__dirname, '..', '..', '..', 'client', 'src', 'lib', name);
    fs.writeFileSync(out, source);
    console.log(`Wrote ${path.relative(process.cwd(), out)}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
