import type { CSSProperties } from 'react';
import type { StoryPage_settingStylesQuery } from '../../gql/graphql';

export type StyleSet = Omit<StoryPage_settingStylesQuery['settingStyles'], '__typename'>;

/** SPEC §3: a dark navy theme, light cyan text, a sans-serif font and an 8px radius. */
export const DEFAULT_STYLE_SET: StyleSet = {
  containerBackground: '#0b1426',
  contentBackground: '#101d36',
  contentTextColor: '#c8f4ff',
  ContainerTextColor: '#aeeeff',
  statsPanelBackground: '#0e1a30',
  statsPanelTextColor: '#c8f4ff',
  statsItemBackground: '#16264a',
  statsItemTextColor: '#e0faff',
  buttonBackground: '#1d3a66',
  buttonTextColor: '#e0faff',
  borderColor: '#2d5a8c',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  borderRadius: '8px',
};

/** Local/system font stacks only (the server's allow-list): never a web-font fetch. */
const FONT_STACKS: readonly string[] = [
  DEFAULT_STYLE_SET.fontFamily,
  'Georgia, "Times New Roman", serif',
  '"Palatino Linotype", Palatino, "Book Antiqua", serif',
  'Garamond, Baskerville, "Times New Roman", serif',
  '"Courier New", Courier, monospace',
  'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
  '"Trebuchet MS", Helvetica, sans-serif',
  'Verdana, Geneva, sans-serif',
  '"Gill Sans", "Gill Sans MT", Calibri, sans-serif',
  'Impact, "Arial Narrow", sans-serif',
  '"Copperplate", "Copperplate Gothic Light", fantasy',
  'Didot, "Bodoni MT", serif',
];

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNC = /^(?:rgba?|hsla?)\(\s*[0-9.]+(?:deg)?%?\s*[, ]\s*[0-9.]+%?\s*[, ]\s*[0-9.]+%?(?:\s*[,/]\s*[0-9.]+%?)?\s*\)$/i;
const NAMED = /^[a-z]{3,20}$/i;
const RADIUS = /^(\d{1,2})px$/;

function isColor(value: unknown): value is string {
  return typeof value === 'string' && (HEX.test(value.trim()) || FUNC.test(value.trim()) || NAMED.test(value.trim()));
}

/**
 * Defence in depth: the server already validates every token, but the client still only accepts
 * colours, an allowed font stack and a bounded radius, field by field; anything else is the default.
 * A style set is design tokens, never CSS or HTML.
 */
export function sanitizeStyleSet(input: Partial<Record<keyof StyleSet, unknown>> | null | undefined): StyleSet {
  const out: StyleSet = { ...DEFAULT_STYLE_SET };
  if (!input) return out;
  for (const key of Object.keys(DEFAULT_STYLE_SET) as Array<keyof StyleSet>) {
    const value = input[key];
    if (key === 'fontFamily') {
      if (typeof value === 'string' && FONT_STACKS.includes(value)) out.fontFamily = value;
    } else if (key === 'borderRadius') {
      const m = typeof value === 'string' ? RADIUS.exec(value) : null;
      if (m && Number(m[1]) <= 24) out.borderRadius = value as string;
    } else if (isColor(value)) {
      out[key] = value.trim();
    }
  }
  return out;
}

/** The style set as CSS custom properties on the story container (set through the CSSOM, CSP-safe). */
export function styleVars(set: StyleSet): CSSProperties {
  return {
    '--st-container-bg': set.containerBackground,
    '--st-container-fg': set.ContainerTextColor,
    '--st-content-bg': set.contentBackground,
    '--st-content-fg': set.contentTextColor,
    '--st-stats-bg': set.statsPanelBackground,
    '--st-stats-fg': set.statsPanelTextColor,
    '--st-stat-bg': set.statsItemBackground,
    '--st-stat-fg': set.statsItemTextColor,
    '--st-button-bg': set.buttonBackground,
    '--st-button-fg': set.buttonTextColor,
    '--st-border': set.borderColor,
    '--st-font': set.fontFamily,
    '--st-radius': set.borderRadius,
  } as CSSProperties;
}

/** SPEC §4: the immersive restyle applies only when immersive UI is on and a setting exists. */
export function immersiveActive(immersiveUi: boolean | undefined, setting: string | null | undefined): boolean {
  return !!immersiveUi && !!setting && setting.trim() !== '';
}
