import { STYLE_FIELDS } from './story-ai';
import { contrastRatio, DEFAULT_STYLES, FONT_STACKS, parseColor, sanitizeStyles, sanitizeStylesWithReport } from './style-guard';

const good = {
  containerBackground: '#101010',
  contentBackground: 'rgb(20, 30, 40)',
  contentTextColor: 'hsl(180, 60%, 90%)',
  ContainerTextColor: 'white',
  statsPanelBackground: 'navy',
  statsPanelTextColor: '#ffffcc',
  statsItemBackground: 'rgba(0, 0, 0, 1)',
  statsItemTextColor: 'gold',
  buttonBackground: '#333',
  buttonTextColor: 'lightcyan',
  borderColor: 'hsl(200 50% 40%)',
  fontFamily: 'Georgia, "Times New Roman", serif',
  borderRadius: '12px',
};

describe('sanitizeStyles', () => {
  it('keeps a valid set field by field', () => {
    const r = sanitizeStylesWithReport(good);
    expect(r.rejected).toEqual([]);
    expect(r.styles.contentBackground).toBe('rgb(20, 30, 40)');
    expect(r.styles.ContainerTextColor).toBe('white');
    expect(r.styles.borderRadius).toBe('12px');
  });

  it('defaults are the SPEC theme and pass their own checks', () => {
    expect(sanitizeStylesWithReport(DEFAULT_STYLES).rejected).toEqual([]);
    expect(DEFAULT_STYLES.borderRadius).toBe('8px');
    expect(DEFAULT_STYLES.fontFamily).toMatch(/sans-serif$/);
    const navy = parseColor(DEFAULT_STYLES.containerBackground);
    expect(navy && navy.b > navy.r && navy.b < 80).toBe(true);
  });

  it.each([
    'url(https://evil.example/x.png)',
    'URL( javascript:alert(1) )',
    'expression(alert(1))',
    '@import "x.css"',
    'red; background: url(x)',
    'red</style><script>alert(1)</script>',
    '#fff}body{display:none',
    'rgb(0,0,0) /* comment */',
    'var(--x)',
    'currentColor',
    'linear-gradient(red, blue)',
    '#ggg',
    'rgb(300, 0, 0)',
    'hsl(120, 150%, 50%)',
    '',
    '   ',
    'reddish',
  ])('rejects %j in every colour field', (bad) => {
    const input: Record<string, string> = { ...good };
    for (const f of STYLE_FIELDS) if (f !== 'fontFamily' && f !== 'borderRadius') input[f] = bad;
    const out = sanitizeStyles(input);
    for (const f of STYLE_FIELDS) if (f !== 'fontFamily' && f !== 'borderRadius') expect(out[f]).toBe(DEFAULT_STYLES[f]);
    for (const v of Object.values(out)) expect(v).not.toMatch(/url\(|expression|@import|;|<|}/i);
  });

  it.each(['Comic Sans MS', 'Georgia; color: red', 'Georgia, serif</style>', 'url(font.woff)', '"Evil Font", sans-serif', '@import url(x)'])(
    'rejects font %j',
    (font) => {
      expect(sanitizeStyles({ ...good, fontFamily: font }).fontFamily).toBe(DEFAULT_STYLES.fontFamily);
    },
  );

  it('accepts allow-listed fonts with different spacing and quotes', () => {
    expect(sanitizeStyles({ ...good, fontFamily: "georgia,'Times New Roman',serif" }).fontFamily).toBe(FONT_STACKS[1]);
  });

  it.each([['-4px'], ['100px'], ['8em'], ['8px; x'], ['calc(8px)'], ['25px'], ['abc']])('rejects radius %j', (r) => {
    expect(sanitizeStyles({ ...good, borderRadius: r }).borderRadius).toBe('8px');
  });
  it.each([
    ['0', '0px'],
    ['24px', '24px'],
    ['4.5px', '4.5px'],
  ])('accepts radius %j', (r, out) => {
    expect(sanitizeStyles({ ...good, borderRadius: r }).borderRadius).toBe(out);
  });

  it('falls back for text/background pairs under 4.5:1 contrast', () => {
    const r = sanitizeStylesWithReport({
      ...good,
      contentBackground: '#777777',
      contentTextColor: '#888888',
      buttonBackground: 'yellow',
      buttonTextColor: 'white',
    });
    expect(r.styles.contentTextColor).toBe(DEFAULT_STYLES.contentTextColor);
    expect(r.styles.contentBackground).toBe(DEFAULT_STYLES.contentBackground);
    expect(r.styles.buttonTextColor).toBe(DEFAULT_STYLES.buttonTextColor);
    expect(r.rejected.map((x) => x.field)).toEqual(expect.arrayContaining(['contentTextColor', 'buttonTextColor']));
    // Unaffected pairs stay.
    expect(r.styles.statsItemTextColor).toBe('gold');
  });

  it('treats translucent text as what the eye sees over its background', () => {
    const out = sanitizeStyles({ ...good, contentBackground: '#000000', contentTextColor: 'rgba(255, 255, 255, 0.2)' });
    expect(out.contentTextColor).toBe(DEFAULT_STYLES.contentTextColor);
  });

  it('every output pair meets 4.5:1 over many random inputs', () => {
    let seed = 1;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const hex = () =>
      `#${Math.floor(rnd() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`;
    for (let i = 0; i < 500; i++) {
      const input = Object.fromEntries(STYLE_FIELDS.map((f) => [f, hex()]));
      const out = sanitizeStyles(input);
      for (const [t, b] of [
        ['contentTextColor', 'contentBackground'],
        ['ContainerTextColor', 'containerBackground'],
        ['statsPanelTextColor', 'statsPanelBackground'],
        ['statsItemTextColor', 'statsItemBackground'],
        ['buttonTextColor', 'buttonBackground'],
      ] as const) {
        const fg = parseColor(out[t]);
        const bg = parseColor(out[b]);
        expect(fg && bg && contrastRatio(fg, bg)).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('never throws on junk, and fills missing fields with defaults', () => {
    for (const junk of [null, undefined, 42, 'red', [], [1, 2], { containerBackground: 5 }, { __proto__: { x: 1 } }]) {
      expect(sanitizeStyles(junk)).toEqual({ ...DEFAULT_STYLES, ...sanitizeStyles(junk) });
      expect(Object.keys(sanitizeStyles(junk)).sort()).toEqual([...STYLE_FIELDS].sort());
    }
    expect(sanitizeStyles({ buttonBackground: '#000000' }).containerBackground).toBe(DEFAULT_STYLES.containerBackground);
  });
});

describe('parseColor', () => {
  it('reads hex, rgb(), hsl() and named colours', () => {
    expect(parseColor('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColor('#00000080')?.a).toBeCloseTo(0.5, 1);
    expect(parseColor('rgb(1 2 3 / 50%)')).toEqual({ r: 1, g: 2, b: 3, a: 0.5 });
    expect(parseColor('hsl(0, 100%, 50%)')).toMatchObject({ r: 255, g: 0, b: 0 });
    expect(parseColor('RebeccaPurple')).toMatchObject({ r: 0x66, g: 0x33, b: 0x99 });
  });
});
