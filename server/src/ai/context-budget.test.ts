import { countWords, estimateTokens, estimateTokensJoined, tokenizerName, useTokenizer } from './context-budget';

describe('estimateTokens', () => {
  it('is about 4 characters per token on prose and never under words × 4/3', () => {
    expect(estimateTokens('')).toBe(0);
    const prose = 'The quick brown fox jumps over the lazy dog near the riverbank at dawn.';
    expect(estimateTokens(prose)).toBeGreaterThanOrEqual(Math.ceil(prose.length / 4));
    expect(estimateTokens('a b c d e f')).toBe(8);
  });
});

describe('countWords and estimateTokensJoined', () => {
  const samples = [
    '',
    ' ',
    'one',
    '  two  words  ',
    'tab\tand\nnewline',
    'nbsp\u00a0and\u2003em\u3000ideo\ufeffbom',
    '“Quoted,” she said — and left.',
    'x'.repeat(300) + ' y',
  ];
  it('counts what split(/\\s+/) counts', () => {
    for (const s of samples) expect(countWords(s)).toBe(s.trim().split(/\s+/).filter(Boolean).length);
  });
  it('estimates joined parts exactly as the joined text (long parts counted once and remembered)', () => {
    const parts = [samples[6] as string, '', samples[7] as string, samples[4] as string];
    for (let i = 0; i < 2; i++) {
      expect(estimateTokensJoined(parts, '\n')).toBe(estimateTokens(parts.join('\n')));
      expect(estimateTokensJoined(parts, ' ')).toBe(estimateTokens(parts.join(' ')));
    }
    expect(estimateTokensJoined([], '\n')).toBe(0);
  });
});

describe('the tokenizer', () => {
  afterEach(() => useTokenizer('estimate'));
  it('counts with a real BPE vocabulary once a remote model asks for it, and the estimate otherwise', () => {
    const prose = 'The quick brown fox jumps over the lazy dog near the riverbank at dawn.';
    expect(tokenizerName()).toBe('estimate');
    const estimated = estimateTokens(prose);
    useTokenizer('o200k_base');
    expect(tokenizerName()).toBe('o200k_base');
    // o200k_base: one token per word (riverbank is two) and one for the full stop.
    expect(estimateTokens(prose)).toBe(16);
    expect(estimated).toBeGreaterThan(16);
    const long = 'The tide rises over the drowned city of Varnholt. '.repeat(40);
    expect(estimateTokens(long)).toBe(estimateTokens(long)); // cached counts stay the same
    expect(estimateTokensJoined([prose, prose], '\n')).toBe(33);
  });
});
