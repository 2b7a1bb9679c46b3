import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../support/admin-cli';

/**
 * The operator CLI as an operator runs it (the built binary, its own process) on the embedded
 * database: it opens the data folder, migrates it, records every action and reports errors plainly.
 * On PostgreSQL + Redis it runs against live instances in scale-two-instances.test.ts.
 */
// Eleven processes in turn, each opening the embedded database: ~1 s each on a quiet machine, over
// 60 s in all at load average 20 (CI), and over 300 s on a machine of half the speed at load average
// 13 (the first, which migrates the folder, took 81 s alone). What is judged is each answer; the
// limit only catches a hang.
jest.setTimeout(600_000);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-admin-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const admin = (...args: string[]) => runAdmin(args, { DATA_DIR: dir });

it('on the embedded database: usage, empty lists, plain refusals, and a refused action leaves the audit trail empty', async () => {
  const help = await admin('help');
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('npm run admin -- <command>');
  const unknown = await admin('launch-missiles');
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('Unknown command: launch-missiles');

  expect(await admin('reports')).toMatchObject({ code: 0, stdout: 'No reports.\n' });
  const nobody = await admin('credits', 'nobody@example.com', '+5', 'goodwill');
  expect(nobody).toMatchObject({ code: 1, stderr: 'Account not found\n' });
  expect(await admin('reset-mfa', 'nobody@example.com')).toMatchObject({ code: 1, stderr: 'Account not found\n' });
  expect((await admin('credits', 'nobody@example.com', 'lots')).stderr).toBe('The amount is a whole number of credits, not 0.\n');
  expect((await admin('hide', 'planet', '00000000-0000-4000-a000-000000000001')).stderr).toBe('The target is world or story.\n');
  expect((await admin('resolve', 'world', '00000000-0000-4000-a000-000000000001', 'uphold')).stderr).toBe('Open report not found\n');

  // The embedded database of a fresh folder is migrated but not seeded: feature fails, then the
  // audit trail is still empty (a refused action records nothing).
  expect((await admin('feature', '00000000-0000-4000-a000-000000000001')).stderr).toBe('World not found\n');
  expect((await admin('audit')).stdout).toBe('');
  // A count that is not one is said plainly, without a stack trace.
  expect(await admin('audit', 'abc')).toMatchObject({ code: 1, stderr: 'audit takes how many actions to show: a whole number from 1 to 1000.\n' });
});
