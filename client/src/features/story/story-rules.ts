/** SPEC §5: the send button is disabled while generating, or when the action is blank after trimming. */
export function sendDisabled(generating: boolean, action: string | null | undefined): boolean {
  return generating || !(action ?? '').trim();
}

/** The action to send: typed text wins over a selected suggestion. */
export function currentAction(selected: string | null, typed: string): string {
  return typed.trim() ? typed.trim() : (selected ?? '').trim();
}

/** Applies one chapter-stream event: text = text.slice(0, offset) + delta. */
export function applyDelta(text: string, offset: number, delta: string): string {
  return text.slice(0, Math.max(0, Math.min(offset, text.length))) + delta;
}

/** Numeric increases only, positive ones (shown as +N with an up arrow). */
export function positiveIncreases(increases: Record<string, unknown> | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(increases ?? {})) if (typeof v === 'number' && v > 0) out[k] = v;
  return out;
}
