import type { CSSProperties } from 'react';
import type { StoryPage_settingStylesQuery } from '../../gql/graphql';
import { DEFAULT_STYLE_SET as DEFAULT_STYLES, FONT_STACKS, RADIUS_MAX_PX } from '../../lib/styles.generated';

export type StyleSet = Omit<StoryPage_settingStylesQuery['settingStyles'], '__typename'>;

/**
 * SPEC §3: a dark navy theme, light cyan text, a sans-serif font and an 8px radius. The defaults,
 * the font stacks (local/system fonts only: never a web-font fetch) and the radius bound are the
 * server's (ai/style-guard.ts), generated into lib/styles.generated.ts.
 */
export const DEFAULT_STYLE_SET: StyleSet = DEFAULT_STYLES;

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
      if (m && Number(m[1]) <= RADIUS_MAX_PX) out.borderRadius = value as string;
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
