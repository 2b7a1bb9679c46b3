import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';

/**
 * Checks shared by the layout guard and the accessibility suite: a page that holds at a size (no
 * horizontal scroll), an overlay fully on screen whose layer covers the page, focus kept inside a
 * modal and given back to its opener, and axe-core with no serious or critical violation.
 */

/** axe-core's source (a root devDependency; AXE_CORE_PATH may point at another axe.min.js). */
export function axeSource(): string {
  const custom = process.env.AXE_CORE_PATH;
  if (custom) {
    if (!fs.existsSync(custom)) throw new Error(`AXE_CORE_PATH=${custom} does not exist`);
    return fs.readFileSync(custom, 'utf8');
  }
  let file: string;
  try {
    file = require.resolve('axe-core/axe.min.js');
  } catch {
    throw new Error('axe-core is not installed: run `npm install` (it is a root devDependency)');
  }
  return fs.readFileSync(file, 'utf8');
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * Waits for the page's short animations and transitions (entrances, fades: at most a second) to end.
 * Spinners (infinite) and a toast's countdown bar (its whole life) are not waited for.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => {
          const end = a.effect?.getComputedTiming().endTime;
          return typeof end === 'number' && Number.isFinite(end) && end <= 1000;
        })
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** axe-core on the whole document: serious and critical violations, one line each. */
export async function audit(page: Page, label: string): Promise<string[]> {
  await settled(page); // contrast is measured on final colours, after entrance animations and fades
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const violations = (await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return r.violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${label}: [${v.impact}] ${v.id} — ${v.help} @ ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

/** The page does not scroll sideways. */
export async function noHorizontalScroll(page: Page, label: string): Promise<string[]> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  return scroll > width ? [`${label}: scrolls sideways (${scroll} px of content in ${width} px)`] : [];
}

/** The element's box lies fully inside the viewport. */
export async function insideViewport(part: Locator, label: string): Promise<string[]> {
  // Measured at the final box: after the element's own entrance animation (slide-in, bounce).
  await part.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished.catch(() => undefined))));
  const r = await part.evaluate((el) => {
    const b = el.getBoundingClientRect();
    return { x: b.left, y: b.top, right: b.right, bottom: b.bottom, vw: window.innerWidth, vh: window.innerHeight };
  });
  const out = r.x < -0.5 || r.y < -0.5 || r.right > r.vw + 0.5 || r.bottom > r.vh + 0.5;
  return out
    ? [`${label}: outside the viewport (box ${Math.round(r.x)},${Math.round(r.y)} → ${Math.round(r.right)},${Math.round(r.bottom)} in ${r.vw}×${r.vh})`]
    : [];
}

/**
 * A modal's layer (its nearest fixed ancestor) covers the whole viewport, so the page behind is
 * dimmed and cannot be clicked: a layer trapped in a transformed or filtered ancestor does not.
 */
async function layerCoversViewport(dialog: Locator, label: string): Promise<string[]> {
  const r = await dialog.evaluate((el) => {
    let layer: Element | null = el;
    while (layer && getComputedStyle(layer).position !== 'fixed') layer = layer.parentElement;
    const b = (layer ?? el).getBoundingClientRect();
    return { w: b.width, h: b.height, vw: window.innerWidth, vh: window.innerHeight, fixed: Boolean(layer) };
  });
  if (!r.fixed) return [`${label}: no fixed layer behind the dialog`];
  return r.w < r.vw - 1 || r.h < r.vh - 1 ? [`${label}: its layer is ${Math.round(r.w)}×${Math.round(r.h)}, not the ${r.vw}×${r.vh} viewport`] : [];
}

/** Tab and Shift+Tab, more times than the dialog has controls, never leave it. */
async function focusTrapped(page: Page, dialog: Locator, label: string): Promise<string[]> {
  const count = await dialog.evaluate((el) => el.querySelectorAll('a[href], button, textarea, input, select, [tabindex]').length);
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < count + 2; i++) {
      await page.keyboard.press(key);
      const inside = await dialog.evaluate((el) => el.contains(document.activeElement));
      if (!inside) {
        const where = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? 'nothing');
        return [`${label}: ${key} #${i + 1} left the dialog for ${where}`];
      }
    }
  }
  return [];
}

/** After `close`, focus is back on `opener` (or on `returnTo` when the opener has gone, e.g. a closed menu). */
async function focusReturned(page: Page, close: () => Promise<void>, returnTo: Locator, label: string): Promise<string[]> {
  await close();
  // Focus comes back as the overlay unmounts (a frame or two): wait for it, up to a second.
  const handle = await returnTo.elementHandle({ timeout: 2000 }).catch(() => null);
  const back = handle
    ? await page
        .waitForFunction((el) => el === document.activeElement, handle, { timeout: 1000 })
        .then(() => true)
        .catch(() => false)
    : false;
  await handle?.dispose();
  if (back) return [];
  const where = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? 'nothing');
  return [`${label}: focus went to ${where} instead of back to its opener`];
}

/** Every check of a modal dialog or drawer: on screen, covering the page, focus kept and returned, axe. */
export async function checkModal(page: Page, dialog: Locator, label: string, close: () => Promise<void>, returnTo: Locator): Promise<string[]> {
  await dialog.waitFor();
  const problems = [
    ...(await insideViewport(dialog, label)),
    ...(await layerCoversViewport(dialog, label)),
    ...(await noHorizontalScroll(page, label)),
    ...(await audit(page, label)),
    ...(await focusTrapped(page, dialog, label)),
  ];
  problems.push(...(await focusReturned(page, close, returnTo, label)));
  return problems;
}
