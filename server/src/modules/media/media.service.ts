import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { Media } from './media.entity';
import { ByteLru, encodeWebpVariant, VARIANT_CACHE_BYTES, type MediaWidth } from './media-variants';

export interface MediaBlob {
  mime: string;
  bytes: Buffer;
}

export interface MediaVariant extends MediaBlob {
  etag: string;
}

/** Stores and serves images we own. The sha256 is the ETag; ids never change content. */
export class MediaService {
  /** Resized copies by `${id}:${width}` (ids never change content, so entries never go stale). */
  private readonly variants: ByteLru<MediaVariant>;
  /** Encodes in progress: concurrent requests for the same variant share one. */
  private readonly encoding = new Map<string, Promise<MediaVariant | null>>();

  constructor(
    private readonly dataSource: DataSource,
    variantCacheBytes = VARIANT_CACHE_BYTES,
  ) {
    this.variants = new ByteLru(variantCacheBytes);
  }

  async store(m: EntityManager | undefined, blob: MediaBlob): Promise<Media> {
    const repo = (m ?? this.dataSource.manager).getRepository(Media);
    const sha256 = crypto.createHash('sha256').update(blob.bytes).digest('hex');
    return repo.save({ mime: blob.mime, bytes: blob.bytes, sha256, byteLength: blob.bytes.length });
  }

  get(id: string): Promise<Media | null> {
    return this.dataSource.getRepository(Media).findOne({ where: { id } });
  }

  /**
   * The image resized to at most `width` pixels wide, as WebP (null: no such image). Encoded once,
   * then answered from memory without touching the database.
   */
  async variant(id: string, width: MediaWidth): Promise<MediaVariant | null> {
    const key = `${id}:${width}`;
    const cached = this.variants.get(key);
    if (cached) return cached;
    let pending = this.encoding.get(key);
    if (!pending) {
      pending = (async () => {
        const media = await this.get(id);
        if (!media) return null;
        const v: MediaVariant = { mime: 'image/webp', bytes: await encodeWebpVariant(media.bytes, width), etag: `"${media.sha256}-w${width}"` };
        this.variants.set(key, v);
        return v;
      })().finally(() => this.encoding.delete(key));
      this.encoding.set(key, pending);
    }
    return pending;
  }
}
