// Generated from server/src/ai/style-guard.ts by `npm run schema:emit`. Do not edit.
export const DEFAULT_STYLE_SET = {
  "containerBackground": "#0b1426",
  "contentBackground": "#101d36",
  "contentTextColor": "#c8f4ff",
  "ContainerTextColor": "#aeeeff",
  "statsPanelBackground": "#0e1a30",
  "statsPanelTextColor": "#c8f4ff",
  "statsItemBackground": "#16264a",
  "statsItemTextColor": "#e0faff",
  "buttonBackground": "#1d3a66",
  "buttonTextColor": "#e0faff",
  "borderColor": "#2d5a8c",
  "fontFamily": "system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif",
  "borderRadius": "8px"
};
export const FONT_STACKS: readonly string[] = [
  "system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif",
  "Georgia, \"Times New Roman\", serif",
  "\"Palatino Linotype\", Palatino, \"Book Antiqua\", serif",
  "Garamond, Baskerville, \"Times New Roman\", serif",
  "\"Courier New\", Courier, monospace",
  "ui-monospace, \"SFMono-Regular\", Menlo, Consolas, monospace",
  "\"Trebuchet MS\", Helvetica, sans-serif",
  "Verdana, Geneva, sans-serif",
  "\"Gill Sans\", \"Gill Sans MT\", Calibri, sans-serif",
  "Impact, \"Arial Narrow\", sans-serif",
  "\"Copperplate\", \"Copperplate Gothic Light\", fantasy",
  "Didot, \"Bodoni MT\", serif"
];
export const RADIUS_MAX_PX = 24;
