/**
 * Writes a migration with the SQL that brings the schema from the existing migrations to the current
 * entities. Runs against a throw-away in-memory PGlite — never a folder a server is using.
 * Usage: npm run migration:generate -w server -- AddSomething
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config/env';
import { migrate, openDatabase } from './data-source';

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    console.error('Usage: migration:generate <PascalCaseName>');
    process.exit(2);
  }
  const db = await openDatabase(loadConfig(undefined, { databaseInMemory: true, databaseUrl: undefined }));
  try {
    await migrate(db);
    const sql = await db.dataSource.driver.createSchemaBuilder().log();
    if (sql.upQueries.length === 0) {
      console.log('No changes: the migrations already match the entities.');
      return;
    }
    const ts = Date.now();
    const className = `${name}${ts}`;
    const q = (s: string) => '`' + s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
    const up = sql.upQueries.map((x) => `    await queryRunner.query(${q(x.query)});`).join('\n');
    const down = [...sql.downQueries]
      .reverse()
      .map((x) => `    await queryRunner.query(${q(x.query)});`)
      .join('\n');
    const dir = path.resolve(__dirname, '..', '..', 'src', 'db', 'migrations');
    const file = `${ts}-${name}`;
    fs.writeFileSync(
      path.join(dir, `${file}.ts`),
      `import type { MigrationInterface, QueryRunner } from 'typeorm';\n\n` +
        `export class ${className} implements MigrationInterface {\n  name = '${className}';\n\n` +
        `  public async up(queryRunner: QueryRunner): Promise<void> {\n${up}\n  }\n\n` +
        `  public async down(queryRunner: QueryRunner): Promise<void> {\n${down}\n  }\n}\n`,
    );
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d+-[A-Za-z0-9]+\.ts$/.test(f))
      .sort();
    const imports = files.map((f) => {
      const base = f.replace(/\.ts$/, '');
      const [stamp, n] = base.split('-');
      return { base, cls: `${n}${stamp}` };
    });
    fs.writeFileSync(
      path.join(dir, 'index.ts'),
      `// Ordered list of migrations. \`npm run migration:generate -w server -- <Name>\` appends here.\n` +
        imports.map((i) => `import { ${i.cls} } from './${i.base}';`).join('\n') +
        `\n\nexport const MIGRATIONS = [${imports.map((i) => i.cls).join(', ')}];\n`,
    );
    console.log(`Wrote src/db/migrations/${file}.ts (${sql.upQueries.length} statements)`);
  } finally {
    await db.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
