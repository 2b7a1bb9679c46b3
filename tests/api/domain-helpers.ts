import sharp from 'sharp';
import type { TestApp } from '../support/test-app';

/** Featured worlds seeded with fixed ids (server/src/db/seed-data.ts). */
export const AETHERMOOR = '00000000-0000-4000-a000-000000000001';

export const WORLD_DESCRIPTION =
  'A storm-wrapped archipelago of floating islands where sky-pirates duel over crystals of living wind, ' +
  'and an old lighthouse keeper knows the way to the drowned kingdom below the clouds.';

export async function pngBytes(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } })
    .png()
    .toBuffer();
}
export async function jpegBytes(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 140, b: 90 } } })
    .jpeg()
    .toBuffer();
}
export async function webpBytes(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 40, b: 190 } } })
    .webp()
    .toBuffer();
}

export interface UploadFile {
  bytes: Buffer;
  name: string;
  type?: string;
}

/** POST /api/worlds/submit-world as the SPEC's multipart form. */
export async function submitWorldMultipart(
  t: TestApp,
  token: string | undefined,
  fields: Record<string, string>,
  file?: UploadFile,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('image', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const res = await fetch(`${t.url}/api/worlds/submit-world`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

export function validWorldFields(name = `Skyreach ${Math.random().toString(36).slice(2, 7)}`): Record<string, string> {
  return {
    worldName: name,
    worldDescription: WORLD_DESCRIPTION,
    questions: JSON.stringify(['Which island were you born on?', '', 'What do you steal first?', '   ']),
  };
}

export const balanceOf = async (t: TestApp, userId: string): Promise<number> =>
  (await t.app.db.dataSource.query('SELECT credits FROM subscriptions WHERE user_id = $1', [userId]))[0].credits as number;

export const countRows = async (t: TestApp, table: string, where = 'true', params: unknown[] = []): Promise<number> =>
  (await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params))[0].n as number;

/** A generated character in the SPEC's shape, ready to save. */
export function characterPayload(worldId: string, name = 'Mira Vale') {
  return {
    name,
    world_id: worldId,
    stats: { strength: 9, agility: 14, endurance: 10, intellect: 12, wisdom: 11, charisma: 13 },
    description: 'A sky-pirate apprentice with a stolen compass and a promise to keep.\n\nShe never looks down.',
    traits: ['Bold', 'Curious', 'Loyal'],
    strengths: ['Quick hands', 'Reads the winds'],
    weaknesses: ['Trusts the wrong people'],
    special: { name: 'Windstep', description: 'Once per scene she can run along a gust of wind.' },
    created_at: new Date().toISOString(),
  };
}
