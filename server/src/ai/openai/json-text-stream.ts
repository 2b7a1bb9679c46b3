/**
 * Streaming format for chapters: the model streams the whole JSON object (strict json_schema with
 * `text` as the first property). This extractor watches the raw stream and emits the decoded
 * characters of the `text` string as they arrive, so the prose reaches the player (and the database)
 * while the model is still writing; the full object is parsed and validated once the stream ends.
 *
 * A preamble or a ```json fence before the object is skipped (think blocks are removed before this,
 * by ThinkFilter). If the object does not start with "text" (a server that ignores property order),
 * nothing is emitted incrementally and the caller falls back to emitting the final text in one piece.
 */
export class JsonTextFieldStream {
  private raw = '';
  private state: 'seek' | 'in' | 'done' | 'absent' = 'seek';
  private pos = 0;

  constructor(private readonly field = 'text') {}

  /** Feeds a raw chunk; returns decoded text to emit now (possibly empty). */
  push(chunk: string): string {
    this.raw += chunk;
    if (this.state === 'seek') {
      // The object may come after a preamble or inside a fence: the first `{` followed by a key
      // starts it. Its first key decides: ours streams, another means the text comes later.
      const m = /\{\s*"((?:[^"\\]|\\.)*)"(\s*:\s*)?("?)/.exec(this.raw);
      if (!m) return '';
      if (m[1] !== this.field) {
        this.state = 'absent';
        return '';
      }
      if (!m[2] || (m.index + m[0].length === this.raw.length && !m[3])) return '';
      if (!m[3]) {
        this.state = 'absent';
        return '';
      }
      this.state = 'in';
      this.pos = m.index + m[0].length;
    }
    if (this.state !== 'in') return '';
    let out = '';
    while (this.pos < this.raw.length) {
      const ch = this.raw[this.pos] as string;
      if (ch === '"') {
        this.state = 'done';
        this.pos++;
        break;
      }
      if (ch !== '\\') {
        out += ch;
        this.pos++;
        continue;
      }
      // Escape sequence: wait until it is complete before decoding it.
      const next = this.raw[this.pos + 1];
      if (next === undefined) break;
      if (next === 'u') {
        const hex = this.raw.slice(this.pos + 2, this.pos + 6);
        if (hex.length < 4) break;
        const code = parseInt(hex, 16);
        // A high surrogate needs its low half before it can be emitted.
        if (code >= 0xd800 && code <= 0xdbff) {
          const low = this.raw.slice(this.pos + 6, this.pos + 12);
          if (low.length < 6) break;
          out += String.fromCharCode(code, parseInt(low.slice(2), 16));
          this.pos += 12;
        } else {
          out += Number.isNaN(code) ? '' : String.fromCharCode(code);
          this.pos += 6;
        }
        continue;
      }
      const map: Record<string, string> = { n: '\n', t: '\t', r: '', b: '', f: '', '"': '"', '\\': '\\', '/': '/' };
      out += map[next] ?? next;
      this.pos += 2;
    }
    return out;
  }

  get text(): string {
    return this.raw;
  }
  get streamedField(): boolean {
    return this.state === 'in' || this.state === 'done';
  }
}
