import { speechParts } from './speech';

describe('speechParts: a chapter in parts the speech server takes in one call', () => {
  it('keeps a short chapter whole', () => {
    expect(speechParts('  The storm broke.  ')).toEqual(['The storm broke.']);
    expect(speechParts('   ')).toEqual([]);
  });

  it('cuts after a sentence, never mid-word, and loses nothing', () => {
    const sentence = 'The gulls argued over scraps while carts rattled past the shuttered shops. ';
    const text = sentence.repeat(120).trim(); // ≈ 8,900 characters
    const parts = speechParts(text, 4096);
    expect(parts.length).toBe(3);
    expect(parts.every((p) => p.length <= 4096 && p.endsWith('shops.'))).toBe(true);
    expect(parts.join(' ')).toBe(text);
  });

  it('falls back to a word boundary, then to a hard cut, when no sentence ends in time', () => {
    const words = 'word '.repeat(30).trim();
    const byWord = speechParts(words, 22);
    expect(byWord.every((p) => p.length <= 22 && !p.startsWith(' ') && /^(word ?)+$/.test(p))).toBe(true);
    expect(byWord.join(' ')).toBe(words);
    expect(speechParts('x'.repeat(50), 20)).toEqual(['x'.repeat(20), 'x'.repeat(20), 'x'.repeat(10)]);
  });
});
