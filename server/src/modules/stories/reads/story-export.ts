/**
 * A story as a file the player keeps: Markdown, or one self-contained HTML page styled with the
 * setting's immersive style set.
 *
 * Everything in a story is untrusted (model prose, player actions, names): it is escaped for the
 * context it lands in, and the HTML page carries a Content-Security-Policy that forbids scripts and
 * any network fetch, so it opens offline and stays inert even if escaping had a hole. Style values
 * come only from style-guard's validated tokens and are re-validated here before they enter CSS.
 */
import type { StyleSet } from '../../../ai/story-ai';
import { sanitizeStyles } from '../../../ai/style-guard';
import { escapeHtml } from '../../../common/html';
import type { Character } from '../../characters/character.entity';
import type { CardSnapshot, Chapter } from '../chapter.entity';
import type { Mission } from '../missions/mission.entity';
import { checkText, companionsText, stakesText } from '../stakes/stakes-text';

export interface StoryExport {
  filename: string;
  mimeType: string;
  content: string;
}

export interface ExportableStory {
  character: Character;
  worldName: string | null;
  chapters: Chapter[];
  missions: Mission[];
  /** The story's cards (people, places, things), listed after the missions. */
  cards?: CardSnapshot[];
}

/** A card as one line of text: name (kind), role — description [status]. */
function cardText(k: CardSnapshot): { head: string; body: string } {
  const aka = k.aliases.length ? `, also ${k.aliases.join(', ')}` : '';
  return {
    head: `${k.name} (${k.kind}${aka})`,
    body: [k.role ?? '', k.description, k.status ? `Now: ${k.status}.` : ''].filter(Boolean).join(' — '),
  };
}

/**
 * Markdown readers render inline HTML, so angle brackets and ampersands become entities; markdown
 * syntax characters are escaped so prose cannot turn into links, images or headings.
 */
function escapeMarkdown(s: string): string {
  return s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] as string).replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}

function fileBase(c: Character): string {
  const slug = c.name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase()
    .slice(0, 60);
  return slug || 'story';
}

function statLine(stats: Record<string, number>): string {
  return Object.entries(stats)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** A chapter's dice in words: the hero's check, a party round's companions' own, then health and belongings. */
function diceText(ch: Chapter): string {
  return [checkText(ch.checkOutcome ?? null), companionsText(ch.partyChecks), stakesText(ch.stakes ?? null)].filter(Boolean).join(' ');
}

export function renderStoryMarkdown(story: ExportableStory): StoryExport {
  const { character: c } = story;
  const out: string[] = [`# ${escapeMarkdown(c.name)}`, ''];
  if (story.worldName) out.push(`*World: ${escapeMarkdown(story.worldName)}*`, '');
  out.push(escapeMarkdown(c.description), '', `**Stats:** ${escapeMarkdown(statLine(c.stats))}`, '');
  if (story.missions.length > 0) {
    out.push('## Missions', '');
    for (const m of story.missions) out.push(`- ${m.status === 'completed' ? '[x]' : '[ ]'} ${escapeMarkdown(m.objective)}`);
    out.push('');
  }
  if (story.cards?.length) {
    out.push('## Story cards', '');
    for (const k of story.cards) {
      const t = cardText(k);
      out.push(`- **${escapeMarkdown(t.head)}**${t.body ? ` ${escapeMarkdown(t.body)}` : ''}`);
    }
    out.push('');
  }
  for (const ch of story.chapters) {
    out.push(`## Chapter ${ch.index + 1}${ch.textEditedAt ? ' *(edited by the player)*' : ''}`, '');
    if (ch.playerChoice) out.push(`> ${escapeMarkdown(ch.playerChoice)}${ch.choiceEditedAt ? ' *(edited)*' : ''}`, '');
    const dice = diceText(ch);
    if (dice) out.push(`*${escapeMarkdown(dice)}*`, '');
    out.push(...ch.text.split(/\n{2,}/).flatMap((p) => [escapeMarkdown(p.trim()), '']));
    out.push('---', '');
  }
  return { filename: `${fileBase(c)}.md`, mimeType: 'text/markdown; charset=utf-8', content: out.join('\n') };
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** The page's CSS from a style set: every value re-validated before it enters CSS. */
function storyCss(rawStyles: StyleSet): string {
  const s = sanitizeStyles(rawStyles);
  // Belt and braces: a token that could close the style element or start a rule never reaches CSS.
  for (const v of Object.values(s)) if (/[<>{};\\]|url\(|expression/i.test(v)) throw new Error('unsafe style token');
  return `
:root { color-scheme: dark light; }
body { margin: 0; background: ${s.containerBackground}; color: ${s.ContainerTextColor}; font-family: ${s.fontFamily}; line-height: 1.6; }
main { max-width: 46rem; margin: 2rem auto; padding: 2rem; background: ${s.contentBackground}; color: ${s.contentTextColor}; border: 1px solid ${s.borderColor}; border-radius: ${s.borderRadius}; }
aside { background: ${s.statsPanelBackground}; color: ${s.statsPanelTextColor}; border-radius: ${s.borderRadius}; padding: 1rem; margin-bottom: 2rem; }
.stat { display: inline-block; background: ${s.statsItemBackground}; color: ${s.statsItemTextColor}; border-radius: ${s.borderRadius}; padding: .2rem .6rem; margin: .2rem; }
.choice { display: inline-block; background: ${s.buttonBackground}; color: ${s.buttonTextColor}; border-radius: ${s.borderRadius}; padding: .3rem .8rem; font-style: italic; }
hr { border: 0; border-top: 1px solid ${s.borderColor}; margin: 2rem 0; }
.done { text-decoration: line-through; opacity: .8; }
`;
}

/** One chapter: its heading, the action that led to it, its paragraphs; everything escaped. */
function chapterHtml(n: number, ch: { choice: string | null; text: string; choiceEdited?: boolean; textEdited?: boolean; dice?: string }): string {
  const choice = ch.choice ? `<p><span class="choice">${escapeHtml(ch.choice)}</span>${ch.choiceEdited ? ' <small>(edited)</small>' : ''}</p>` : '';
  const dice = ch.dice ? `<p class="dice"><small>${escapeHtml(ch.dice)}</small></p>` : '';
  const paras = ch.text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const edited = ch.textEdited ? ' <small>(edited by the player)</small>' : '';
  return `<section>\n<h2>Chapter ${n}${edited}</h2>\n${choice}\n${dice}${paras}\n</section>\n<hr>`;
}

export function renderStoryHtml(story: ExportableStory, rawStyles: StyleSet): StoryExport {
  const css = storyCss(rawStyles);
  const { character: c } = story;
  const stats = Object.entries(c.stats)
    .map(([k, v]) => `<span class="stat">${escapeHtml(k)} ${escapeHtml(String(v))}</span>`)
    .join('');
  const missions = story.missions.map((m) => `<li${m.status === 'completed' ? ' class="done"' : ''}>${escapeHtml(m.objective)}</li>`).join('');
  const cards = (story.cards ?? [])
    .map((k) => {
      const t = cardText(k);
      return `<li><strong>${escapeHtml(t.head)}</strong>${t.body ? ` ${escapeHtml(t.body)}` : ''}</li>`;
    })
    .join('');
  const chapters = story.chapters
    .map((ch) =>
      chapterHtml(ch.index + 1, {
        choice: ch.playerChoice,
        text: ch.text,
        choiceEdited: ch.choiceEditedAt !== null,
        textEdited: ch.textEditedAt !== null,
        dice: diceText(ch),
      }),
    )
    .join('\n');
  const title = escapeHtml(c.name);
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${css}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${story.worldName ? `<p><em>${escapeHtml(story.worldName)}</em></p>` : ''}
<aside>
<p>${escapeHtml(c.description).replace(/\n/g, '<br>')}</p>
<div>${stats}</div>
${missions ? `<h3>Missions</h3><ul>${missions}</ul>` : ''}
${cards ? `<h3>Story cards</h3><ul>${cards}</ul>` : ''}
</aside>
${chapters}
</main>
</body>
</html>
`;
  return { filename: `${fileBase(c)}.html`, mimeType: 'text/html; charset=utf-8', content: html };
}

/** What a published story's page needs; absolute URLs for Open Graph (chat apps fetch them from elsewhere). */
export interface PublishedPage {
  characterName: string;
  worldName: string | null;
  chapters: Array<{ choice: string | null; text: string }>;
  styles: StyleSet;
  pageUrl: string;
  imageUrl: string | null;
  /** Where a reader reports the story (an app page: this one runs no script). */
  reportPath?: string;
}

/** The Content-Security-Policy a published page is served with: no script at all, images from here. */
export const PUBLISHED_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Open Graph descriptions are a sentence or two: the opening of the first chapter, cut at a word. */
function openingOf(chapters: PublishedPage['chapters']): string {
  const first = (chapters[0]?.text ?? '').replace(/\s+/g, ' ').trim();
  if (first.length <= 200) return first;
  const cut = first.slice(0, 200);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 120))}…`;
}

/**
 * A published story as a reader sees it: the story, the character's name and the world, nothing else
 * about the player (no stats, missions, cards, account). Server-rendered with Open Graph and Twitter
 * tags so links unfurl in chat apps; every text, in element content and attributes alike, is escaped.
 */
export function renderPublishedStory(p: PublishedPage): string {
  const title = p.worldName ? `${p.characterName} — ${p.worldName}` : p.characterName;
  const description = openingOf(p.chapters);
  const meta = [
    ['og:type', 'article'],
    ['og:site_name', 'Taleforge'],
    ['og:title', title],
    ['og:description', description],
    ['og:url', p.pageUrl],
    ...(p.imageUrl ? [['og:image', p.imageUrl]] : []),
  ]
    .map(([k, v]) => `<meta property="${k}" content="${escapeHtml(v!)}">`)
    .concat(
      [
        ['twitter:card', p.imageUrl ? 'summary_large_image' : 'summary'],
        ['twitter:title', title],
        ['twitter:description', description],
        ['description', description],
      ].map(([k, v]) => `<meta name="${k}" content="${escapeHtml(v!)}">`),
    )
    .join('\n');
  const chapters = p.chapters.map((ch, i) => chapterHtml(i + 1, ch)).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
${meta}
<link rel="canonical" href="${escapeHtml(p.pageUrl)}">
<style>${storyCss(p.styles)}
.cover { display: block; width: 100%; max-height: 18rem; object-fit: cover; border-radius: inherit; margin-bottom: 1.5rem; }
footer { text-align: center; font-size: .85rem; opacity: .8; margin: 2rem 0; }
footer a { color: inherit; }
@media (max-width: 600px) { main { margin: 0; padding: 1.25rem; border-width: 0 0 1px; border-radius: 0; } }</style>
</head>
<body>
<main>
${p.imageUrl ? `<img class="cover" src="${escapeHtml(new URL(p.imageUrl).pathname)}" alt="">` : ''}
<h1>${escapeHtml(p.characterName)}</h1>
${p.worldName ? `<p><em>A story in ${escapeHtml(p.worldName)}</em></p>` : ''}
<hr>
${chapters}
</main>
<footer>Written with <a href="/">Taleforge</a>${p.reportPath ? ` · <a href="${escapeHtml(p.reportPath)}">Report this story</a>` : ''}</footer>
</body>
</html>
`;
}
