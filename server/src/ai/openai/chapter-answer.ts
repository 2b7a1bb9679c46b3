/**
 * A chapter's answer, written as prose (issue 30, item 4). The model writes the chapter as plain
 * text, then a `### NEXT` line and the suggested actions as a numbered list, then a `### RECORD` line
 * and the chapter's record (stat gains, mission, cast, memories, items) as one JSON object:
 *
 *   The tide turned while you slept…            ← streamed to the reader as it comes
 *
 *   ### NEXT
 *   1. Follow the lantern light                  ← shown as soon as the list is complete
 *   2. …
 *
 *   ### RECORD
 *   {"statIncreases": [], "cast": [...], …}      ← validated; repaired by a call of its own if needed
 *
 * The prose is never inside JSON (a model writes better prose as prose, and earlier chapters go back
 * to it as prose), and the record can fail or be repaired without touching it. One call, not two:
 * the actions come a few tokens after the prose (about a second at 20 tokens/s), where a second call
 * would first have to read the whole prompt again. Think blocks are removed before this (ThinkFilter).
 */

import { JsonTextFieldStream } from './json-text-stream';

/** `### NEXT` / `NEXT ACTIONS:` / `**Next:**` alone on a whole line (its newline is what makes it a marker). */
const NEXT = /^[ \t]*(?:#{1,4}[ \t]*)?\**[ \t]*next(?:[ \t]+actions?)?[ \t]*:?[ \t]*\**[ \t]*:?[ \t]*\r?\n/im;
const RECORD = /^[ \t]*(?:#{1,4}[ \t]*)?\**[ \t]*record[ \t]*:?[ \t]*\**[ \t]*:?[ \t]*\r?\n/im;
/** A partial last line that could still become a marker line: held back from the reader. */
const MAYBE_MARKER =
  /(?:^|\n)[ \t]*(?:#{1,4}[ \t]*)?\**[ \t]*(?:n(?:e(?:x(?:t(?:[ \t]+a(?:c(?:t(?:i(?:o(?:n(?:s)?)?)?)?)?)?)?)?)?)?|r(?:e(?:c(?:o(?:r(?:d)?)?)?)?)?)?[ \t*:]*$/i;
/** "Sure! Here is the next chapter {as requested}:" — a local model's lead-in, never part of the chapter. */
const LEAD_IN =
  /^[ \t]*(?:sure|certainly|of course|okay|ok|alright|absolutely|here(?:'s| is| are| comes))\b(?:[^\n]{0,140}:|[^\n]{0,140}\b(?:chapter|continuation|next part)\b[^\n]{0,60}[!.])[ \t]*$/i;
const LEAD_IN_WORDS = ['sure', 'certainly', 'of course', 'okay', 'ok', 'alright', 'absolutely', 'here'];
/** A first line, still coming, that may turn out to be a lead-in ("S", "Sur", "Sure! Here is…"). */
function mayLeadIn(line: string): boolean {
  const t = line.trimStart().toLowerCase();
  return t === '' || LEAD_IN_WORDS.some((w) => w.startsWith(t) || t.startsWith(w));
}
/** A first line that may still become a heading or a fence. */
const MAYBE_HEADING = /^(?:`{1,3}[a-z]*|[ \t]*(?:#{1,4}[ \t]*)?\**[ \t]*(?:c(?:h(?:a(?:p(?:t(?:e(?:r(?:[ \t]+\d*[^\n]*)?)?)?)?)?)?)?)?)$/i;
/** A title or heading a model puts first ("Chapter 4: The Drowned Bell", "**Chapter 4**"). */
const HEADING = /^[ \t]*(?:#{1,4}[ \t]*)?\**[ \t]*chapter[ \t]+\d+\b[^\n]*\n$/i;

export class ChapterAnswerStream {
  /**
   * 'json': the model answered the old way, the whole chapter as one JSON object (a model trained to
   * answer in JSON, a server that only speaks it): its `text` still streams (JsonTextFieldStream).
   */
  mode: 'undecided' | 'prose' | 'json' = 'undecided';
  private json: JsonTextFieldStream | null = null;
  private raw = '';
  /** Where the answer itself starts (after a lead-in line such as "Sure! Here is the chapter:"). */
  private start = 0;
  /** Prose characters already handed out. */
  private emitted = 0;
  private section: 'prose' | 'next' | 'record' = 'prose';
  private proseEnd = -1;
  private nextEnd = -1;
  /** How many actions were handed out so far. */
  private choicesOut = 0;

  /**
   * Feeds a chunk (think blocks already removed); answers the prose to show now, and the actions so
   * far whenever one more is complete (its line ended), so the first is on screen about one short
   * line after the prose ends, not after the whole list.
   */
  push(chunk: string): { prose: string; choices: string[] | null } {
    this.raw += chunk;
    if (this.mode === 'undecided') {
      const start = this.opening();
      if (start === null) return { prose: '', choices: null };
      if (/^(?:```[a-z]*\s*)?\{/i.test(this.raw.slice(start))) {
        this.mode = 'json';
        this.json = new JsonTextFieldStream('text');
        return { prose: this.json.push(this.raw), choices: null };
      }
      this.mode = 'prose';
      this.start = start;
    }
    if (this.json) return { prose: this.json.push(chunk), choices: null };
    let prose = '';
    let choices: string[] | null = null;
    if (this.section === 'prose') {
      const m = NEXT.exec(this.raw) ?? RECORD.exec(this.raw);
      if (m) {
        this.proseEnd = m.index;
        this.section = RECORD.test(m[0]) ? 'record' : 'next';
        if (this.section === 'record') this.nextEnd = m.index + m[0].length;
        prose = this.take(this.proseEnd);
      } else {
        const hold = MAYBE_MARKER.exec(this.raw);
        prose = this.take(hold ? hold.index : this.raw.length);
      }
    }
    if (this.section === 'next') {
      const r = RECORD.exec(this.raw.slice(this.proseEnd));
      if (r) {
        this.nextEnd = this.proseEnd + r.index + r[0].length;
        this.section = 'record';
      }
    }
    if (this.section === 'next') {
      // Only whole lines: an action still being written is not offered half-way.
      const upTo = this.raw.lastIndexOf('\n') + 1;
      if (upTo > this.proseEnd) choices = this.moreChoices(this.raw.slice(this.proseEnd, upTo));
    } else if (this.section === 'record' && this.proseEnd >= 0) choices = this.moreChoices(this.raw.slice(this.proseEnd, this.nextEnd));
    return { prose, choices };
  }

  /** The actions in `section` when there are more than were handed out; null otherwise. */
  private moreChoices(section: string): string[] | null {
    const list = actionsIn(section);
    if (list.length <= this.choicesOut) return null;
    this.choicesOut = list.length;
    return list;
  }

  /** At the end of the stream: the rest of the prose, and the actions if they were not out yet. */
  end(): { prose: string; choices: string[] | null } {
    if (this.json) return { prose: '', choices: null };
    let prose = '';
    let choices: string[] | null = null;
    if (this.section === 'prose') prose = this.take(this.raw.length);
    if (this.section === 'next') choices = this.moreChoices(this.raw.slice(this.proseEnd));
    return { prose, choices };
  }

  /** The whole prose as the reader got it (before the final trim). */
  get prose(): string {
    if (this.json) return '';
    return this.cleaned(this.proseEnd >= 0 ? this.proseEnd : this.raw.length);
  }

  /** The suggested actions (empty when the model wrote none). */
  get choices(): string[] {
    if (this.json || this.proseEnd < 0) return [];
    return actionsIn(this.raw.slice(this.proseEnd, this.section === 'record' ? this.nextEnd : undefined));
  }

  /** The record's raw text (JSON, perhaps fenced); '' when the model wrote none. */
  get record(): string {
    if (this.json) return '';
    return this.section === 'record' ? this.raw.slice(this.nextEnd) : '';
  }

  /** Everything the model wrote (think blocks removed). */
  get text(): string {
    return this.raw;
  }

  /**
   * Where the answer starts, once that is known: past whitespace and a lead-in line a local model
   * puts first ("Sure! Here is the next chapter:"); null while the first line is still coming and
   * could be one (or could open a fence or a JSON object).
   */
  private opening(): number | null {
    let at = this.raw.length - this.raw.replace(/^\s+/, '').length;
    const line = this.raw.slice(at).split('\n', 1)[0]!;
    const complete = this.raw.indexOf('\n', at) >= 0;
    if (LEAD_IN.test(line)) {
      if (!complete) return null;
      at = this.raw.indexOf('\n', at) + 1;
      at += this.raw.slice(at).length - this.raw.slice(at).replace(/^\s+/, '').length;
    } else if (!complete && line.length < 160 && mayLeadIn(line)) return null;
    const rest = this.raw.slice(at);
    if (rest === '' || /^`{1,3}[a-z]*\s*$/i.test(rest)) return null;
    return at;
  }

  /** Hands out the cleaned prose up to raw position `end`, beyond what was handed out already. */
  private take(end: number): string {
    const clean = this.cleaned(end);
    // Trailing whitespace waits: it may turn out to be the gap before the NEXT line.
    const upTo = clean.replace(/\s+$/, '').length;
    if (upTo <= this.emitted) return '';
    const out = clean.slice(this.emitted, upTo);
    this.emitted = upTo;
    return out;
  }

  /** Raw characters before the prose proper (whitespace, a fence line, a heading), once its first line is whole. */
  private skip: number | null = null;

  /** The prose up to raw position `end`, without a leading fence or heading (nothing until its first line is whole). */
  private cleaned(end: number): string {
    if (this.skip === null) {
      let at = this.start;
      const ws = () => {
        while (at < this.raw.length && /\s/.test(this.raw[at]!)) at++;
      };
      ws();
      const line = () => {
        const nl = this.raw.indexOf('\n', at);
        return nl < 0 ? null : this.raw.slice(at, nl + 1);
      };
      let first = line();
      if (first !== null && /^```[a-z]*[ \t]*\n$/i.test(first)) {
        at += first.length;
        ws();
        first = line();
      }
      if (first === null) {
        // The first line is still coming: it may be a heading (or the fence's line).
        if (MAYBE_HEADING.test(this.raw.slice(at)) && this.raw.length - at < 200) return '';
      } else if (HEADING.test(first)) {
        at += first.length;
        ws();
      }
      this.skip = at - this.start;
    }
    const from = this.start + this.skip;
    return this.raw
      .slice(from, Math.max(from, end))
      .replace(/^\s+/, '')
      .replace(/\n?```\s*$/, '');
  }
}

/** The numbered (or bulleted) actions of a NEXT section, trimmed, distinct, at most 4. */
function actionsIn(section: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of section.split('\n').slice(1)) {
    const m = /^[ \t]*(?:\d+[.)]|[-*•])[ \t]+(.+?)[ \t]*$/.exec(line);
    if (!m) continue;
    const a = m[1]!
      .replace(/^\*\*(.+)\*\*$/, '$1')
      .replace(/[.!]+$/, '')
      .trim();
    if (!a || a.length > 160 || seen.has(a.toLowerCase())) continue;
    seen.add(a.toLowerCase());
    out.push(a);
    if (out.length === 4) break;
  }
  return out;
}
