import { ChapterAnswerStream } from './chapter-answer';
import { splitInto } from './fake-openai-server';

/**
 * The prose of a chapter's answer reaches the reader exactly, however the server cuts its chunks:
 * never a marker, a list item, a heading, a lead-in or a byte of the record; the actions as soon as
 * the list is complete.
 */
const PROSE = 'Rain drummed on the slate.\n\nNext to the well, Oskar waited. "Record this," he said, and the bell rang twice.';
const LIST = '1. Lift the stone\n2. Ask Oskar about the bell\n3) Wait for night';
const CHOICES = ['Lift the stone', 'Ask Oskar about the bell', 'Wait for night'];
const RECORD = '{"statIncreases": [], "cast": []}';

const variants: Array<[string, string]> = [
  ['plain markers', `${PROSE}\n\n### NEXT\n${LIST}\n\n### RECORD\n${RECORD}`],
  ['bold markers with colons', `${PROSE}\n\n**Next:**\n${LIST}\n\n**Record:**\n${RECORD}`],
  ['a heading and a fence', `\`\`\`\nChapter 3: The Well\n\n${PROSE}\n\n### NEXT\n${LIST}\n\n### RECORD\n${RECORD}\n\`\`\``],
  ['a lead-in', `Sure! Here is the next chapter:\n\n${PROSE}\n\nNEXT ACTIONS:\n${LIST}\n\nRECORD\n${RECORD}`],
];

describe('ChapterAnswerStream', () => {
  it.each(variants)('%s: the prose exactly, at every chunk size', (_name, answer) => {
    for (let size = 1; size <= 24; size++) {
      const s = new ChapterAnswerStream();
      let prose = '';
      let choices: string[] | null = null;
      let choicesAt = -1;
      const pieces = splitInto(answer, size);
      pieces.forEach((p, i) => {
        const r = s.push(p);
        prose += r.prose;
        if (r.choices) {
          choices = r.choices;
          choicesAt = i;
        }
      });
      const end = s.end();
      prose += end.prose;
      choices ??= end.choices;
      expect([size, prose]).toEqual([size, PROSE]);
      expect(choices).toEqual(CHOICES);
      expect(s.record).toContain('"statIncreases"');
      // The actions came out before the record had been written.
      expect(choicesAt).toBeGreaterThanOrEqual(0);
      expect(choicesAt).toBeLessThan(pieces.length - 1);
    }
  });

  it('hands out each action as soon as its line ends, not after the whole list', () => {
    const s = new ChapterAnswerStream();
    const lists: string[][] = [];
    const answer = `${PROSE}\n\n### NEXT\n${LIST}\n\n### RECORD\n${RECORD}`;
    for (const p of splitInto(answer, 5)) {
      const r = s.push(p);
      if (r.choices) lists.push(r.choices);
      // Never half an action: everything handed out is one of the whole ones.
      for (const a of r.choices ?? []) expect(CHOICES).toContain(a);
    }
    expect(lists).toEqual([CHOICES.slice(0, 1), CHOICES.slice(0, 2), CHOICES]);
  });

  it('an answer that is only prose is all prose (the record is then written by a call of its own)', () => {
    const s = new ChapterAnswerStream();
    let prose = '';
    for (const p of splitInto(PROSE, 3)) prose += s.push(p).prose;
    prose += s.end().prose;
    expect(prose).toBe(PROSE);
    expect(s.choices).toEqual([]);
    expect(s.record).toBe('');
  });

  it('an answer written the old way (one JSON object) streams its text field', () => {
    const s = new ChapterAnswerStream();
    let prose = '';
    for (const p of splitInto(JSON.stringify({ text: PROSE, choices: CHOICES }), 4)) prose += s.push(p).prose;
    expect(s.mode).toBe('json');
    expect(prose).toBe(PROSE);
  });
});
