import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ADMIN = path.resolve(__dirname, '..', '..', 'server', 'dist', 'admin.js');

/** Runs the built operator CLI (`npm run admin` without the build step) with this environment. */
export function runAdmin(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!fs.existsSync(ADMIN)) throw new Error(`${ADMIN} is missing: build the server first (npm test does).`);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [ADMIN, ...args, '--as', 'test-operator'], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', LOG_LEVEL: 'warn', JWT_SECRET: 'x'.repeat(40), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
