import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { Media } from './media.entity';

export interface MediaBlob {
  mime: string;
  bytes: Buffer;
}

/** Stores and serves images we own. The sha256 is the ETag; ids never change content. */
export class MediaService {
  constructor(private readonly dataSource: DataSource) {}

  async store(m: EntityManager | undefined, blob: MediaBlob): Promise<Media> {
    const repo = (m ?? this.dataSource.manager).getRepository(Media);
    const sha256 = crypto.createHash('sha256').update(blob.bytes).digest('hex');
    return repo.save({ mime: blob.mime, bytes: blob.bytes, sha256, byteLength: blob.bytes.length });
  }

  get(id: string): Promise<Media | null> {
    return this.dataSource.getRepository(Media).findOne({ where: { id } });
  }
}
