/**
 * What real model servers put around the JSON we ask for, and how we see through it:
 * - reasoning models write a think block first (`<think>…</think>`, also `<thinking>` or
 *   `<reasoning>`), often mentioning `{` or a JSON example — never part of the answer;
 * - JSON-mode-only and local models wrap the object in a ```json fence or put a preamble before it
 *   ("Sure! Here is the chapter:") and sometimes a remark after it.
 * Both the streaming path (ThinkFilter, then JsonTextFieldStream seeking the object) and the final
 * parse (parseModelJson) skip the same things, so the text streams live and parses the same.
 */

const OPEN = /<(think|thinking|reasoning)>/i;
const LONGEST_OPEN = '<reasoning>'.length;

/**
 * Removes think blocks from streamed content, chunk by chunk. Text that could be the start of an
 * opening tag is held back until the next chunk decides; inside a block everything is dropped until
 * its closing tag. An unclosed block hides the rest of the answer (the model never answered).
 */
export class ThinkFilter {
  private pending = '';
  private closing: string | null = null;

  push(chunk: string): string {
    this.pending += chunk;
    let out = '';
    for (;;) {
      if (this.closing) {
        const end = this.pending.toLowerCase().indexOf(this.closing);
        if (end < 0) {
          // Keep only what could be the start of the closing tag.
          this.pending = this.pending.slice(Math.max(0, this.pending.length - this.closing.length + 1));
          return out;
        }
        this.pending = this.pending.slice(end + this.closing.length);
        this.closing = null;
        continue;
      }
      const m = OPEN.exec(this.pending);
      if (m) {
        out += this.pending.slice(0, m.index);
        this.closing = `</${m[1]!.toLowerCase()}>`;
        this.pending = this.pending.slice(m.index + m[0].length);
        continue;
      }
      // No opening tag: emit all but a tail that could still become one.
      const lt = this.pending.lastIndexOf('<');
      const hold = lt >= 0 && this.pending.length - lt < LONGEST_OPEN ? this.pending.length - lt : 0;
      out += this.pending.slice(0, this.pending.length - hold);
      this.pending = this.pending.slice(this.pending.length - hold);
      return out;
    }
  }

  /** The held-back tail at the end of the stream (outside any block). */
  flush(): string {
    const rest = this.closing ? '' : this.pending;
    this.pending = '';
    return rest;
  }
}

/** The content without think blocks (closed ones anywhere; an unclosed one hides the rest). */
function stripThinking(raw: string): string {
  const f = new ThinkFilter();
  return f.push(raw) + f.flush();
}

/**
 * Parses a model's JSON answer leniently: think blocks, a Markdown fence, a preamble and trailing
 * remarks are skipped; the first complete JSON object that parses wins. Throws when there is none.
 */
export function parseModelJson(raw: string): unknown {
  const text = stripThinking(raw).trim();
  try {
    return JSON.parse(text);
  } catch {
    // fall through: look for the object inside
  }
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) {
    try {
      return JSON.parse(fenced[1]!.trim());
    } catch {
      // fall through
    }
  }
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = objectEnd(text, start);
    if (end < 0) continue;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // a brace in a preamble: try the next one
    }
  }
  throw new SyntaxError('no JSON object in the reply');
}

/** Index of the `}` closing the object that opens at `start` (strings and escapes respected), or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Prose is stored and shown as plain text, so an angle bracket a model writes ("x < y", "hearts <3")
 * is harmless — but our stored text refuses them (they look like markup to every other reader).
 * They become the single guillemets ‹ ›, the same in the stream and in the stored chapter.
 */
export function plainAngles(s: string): string {
  return s.replace(/</g, '‹').replace(/>/g, '›');
}
