import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import express from 'express';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import type { Media } from './media.entity';
import { ByteLru, MEDIA_WIDTHS, parseMediaWidth } from './media-variants';
import { serveMedia } from './media.http';
import { MediaService } from './media.service';

const ID = '0c914b50-1111-4222-8333-944445555666';

/** The media service over an in-memory row instead of the database, counting reads. */
class FakeMediaService extends MediaService {
  reads = 0;
  constructor(private readonly row: Media | null) {
    super({} as DataSource);
  }
  override async get(id: string): Promise<Media | null> {
    this.reads++;
    return this.row && id === this.row.id ? this.row : null;
  }
}

describe('GET /media/:id (and ?w= variants)', () => {
  let original: Buffer;
  let service: FakeMediaService;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    // 1024×576 like the seeded art (16:9), with detail so the encoder has something to keep.
    original = await sharp({ create: { width: 1024, height: 576, channels: 3, background: '#30206a' } })
      .composite([{ input: Buffer.from('<svg width="1024" height="576"><circle cx="300" cy="200" r="120" fill="#5ee"/></svg>') }])
      .jpeg({ quality: 85 })
      .toBuffer();
    const row = { id: ID, mime: 'image/jpeg', bytes: original, sha256: 'a'.repeat(64), byteLength: original.length, createdAt: new Date() };
    service = new FakeMediaService(row);
    const app = express();
    app.get('/media/:id', serveMedia(service));
    await new Promise<void>((r) => (server = app.listen(0, '127.0.0.1', () => r())));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('serves the original unchanged without w', async () => {
    const res = await fetch(`${base}/${ID}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('etag')).toBe(`"${'a'.repeat(64)}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(original)).toBe(true);
  });

  it('serves ?w=480 as a WebP 480 wide with the same aspect ratio, cached for a year', async () => {
    const res = await fetch(`${base}/${ID}?w=480`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(body).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(480);
    expect(meta.height).toBe(270); // 1024×576 → 480×270
    expect(body.length).toBeLessThan(original.length);
  });

  it('never enlarges: a width above the original keeps the original width', async () => {
    const res = await fetch(`${base}/${ID}?w=1280`);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 576]);
  });

  it('encodes a variant once, then answers from memory; If-None-Match gets 304', async () => {
    const first = await fetch(`${base}/${ID}?w=320`);
    await first.arrayBuffer();
    const reads = service.reads;
    const etag = first.headers.get('etag');
    expect(etag).toBe(`"${'a'.repeat(64)}-w320"`);
    const again = await fetch(`${base}/${ID}?w=320`);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    const revalidate = await fetch(`${base}/${ID}?w=320`, { headers: { 'if-none-match': etag! } });
    expect(revalidate.status).toBe(304);
    expect(service.reads).toBe(reads);
  });

  it('refuses widths outside the allow-list with a coded 400', async () => {
    for (const w of ['500', '0', 'abc', '640.5', '']) {
      const res = await fetch(`${base}/${ID}?w=${w}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: `w must be one of ${MEDIA_WIDTHS.join(', ')} (pixels).`, code: 'BAD_USER_INPUT', field: 'w' });
    }
  });

  it('answers 404 for unknown or malformed ids, with or without w', async () => {
    for (const path of [`/${ID.replace('0c9', 'fff')}`, `/${ID.replace('0c9', 'fff')}?w=480`, '/not-an-id', '/not-an-id?w=480']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
    }
  });
});

describe('media width parsing and the variant cache', () => {
  it('accepts only the listed widths', () => {
    expect(parseMediaWidth(undefined)).toBeUndefined();
    expect(parseMediaWidth('640')).toBe(640);
    expect(() => parseMediaWidth(['640', '480'])).toThrow(/w must be one of/);
  });

  it('keeps the total size under its bound, evicting the least recently used first', () => {
    const lru = new ByteLru<{ bytes: Buffer }>(100);
    lru.set('a', { bytes: Buffer.alloc(40) });
    lru.set('b', { bytes: Buffer.alloc(40) });
    expect(lru.get('a')).toBeDefined(); // a is now the most recent
    lru.set('c', { bytes: Buffer.alloc(40) });
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.get('c')).toBeDefined();
    expect(lru.totalBytes).toBe(80);
    lru.set('huge', { bytes: Buffer.alloc(101) }); // larger than the whole cache: not kept
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.size).toBe(2);
  });
});
