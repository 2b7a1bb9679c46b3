/**
 * Input parsing for the stories module: everything a player sends is checked here, at the edge,
 * before any read or write, with the coded BAD_USER_INPUT / NOT_FOUND errors the SPEC names.
 */
import { AppError } from '../../common/app-error';
import { isUuid, text } from '../shared/input';
import { ACTION_MAX, DEFAULT_READING_LEVEL, OBJECTIVE_MAX, WORLD_DESCRIPTION_MAX } from '../shared/limits';

export { OBJECTIVE_MAX } from '../shared/limits';
export const SETTING_DESCRIPTION_MAX = 2000;
export const STORYLINE_PAGE_MAX = 200;
const STORYLINE_PAGE_DEFAULT = 50;
export const MISSION_HISTORY_MAX = 200;

/** A next chapter; a new take of the latest one; or a new take that continues it (chapter-continue.ts). */
export type GenerateMode = 'next' | 'regenerate' | 'continue';

export interface ParsedGenerate {
  characterId: string;
  action: string | null;
  readingLevel: number;
  worldDescription: string | null;
  expectedIndex: number | null;
}

/**
 * `actionMax` is the server's, never a player's: a party round's action names every member's part
 * (parties/party-round.ts), each within the party's own limit, so it may be longer than one player's.
 */
export function parseGenerate(raw: Record<string, unknown>, mode: GenerateMode, actionMax: number = ACTION_MAX): ParsedGenerate {
  const characterId = raw.characterId;
  if (!isUuid(characterId)) throw AppError.notFound('Character');
  const action = mode === 'next' ? text(raw.userChoice, 'userChoice', { max: actionMax, tooLong: `Your action can be at most ${actionMax} characters.` }) : '';
  if (mode === 'next' && typeof raw.userChoice === 'string' && raw.userChoice.length > 0 && action === '') {
    throw AppError.badInput('Please choose or type an action.', 'userChoice');
  }
  return {
    characterId,
    action: action || null,
    readingLevel: readingLevelOf(raw.readingLevel),
    worldDescription: text(raw.worldDescription, 'worldDescription', { max: WORLD_DESCRIPTION_MAX }) || null,
    expectedIndex: raw.expectedIndex === undefined || raw.expectedIndex === null ? null : wholeNumber(raw.expectedIndex, 'expectedIndex'),
  };
}

function readingLevelOf(v: unknown): number {
  if (v === undefined || v === null || v === '') return DEFAULT_READING_LEVEL;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 12)
    throw AppError.badInput('readingLevel must be a whole number from 1 to 12.', 'readingLevel');
  return n;
}

function wholeNumber(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw AppError.badInput(`${field} must be a whole number ≥ 0.`, field);
  return v;
}

/** A storyline page request (REST query strings or GraphQL arguments alike). */
export interface StorylinePage {
  limit: number;
  beforeIndex: number | null;
}

export function parseStorylinePage(page: { limit?: unknown; beforeIndex?: unknown }): StorylinePage {
  const l = page.limit;
  const limit = l === undefined || l === null || l === '' ? STORYLINE_PAGE_DEFAULT : Number(l);
  if (!Number.isInteger(limit) || limit < 1 || limit > STORYLINE_PAGE_MAX) throw AppError.badInput(`limit must be 1–${STORYLINE_PAGE_MAX}.`, 'limit');
  const b = page.beforeIndex;
  const beforeIndex = b === undefined || b === null || b === '' ? null : Number(b);
  if (beforeIndex !== null && !Number.isInteger(beforeIndex)) throw AppError.badInput('beforeIndex must be a whole number.', 'beforeIndex');
  return { limit, beforeIndex };
}

export function missionText(v: unknown, field = 'previousMission'): string | null {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) v = (v as Record<string, unknown>).objective;
  return text(v, field, { max: OBJECTIVE_MAX }) || null;
}

export function parseTake(take: unknown): number {
  if (typeof take !== 'number' || !Number.isInteger(take) || take < 0) throw AppError.badInput('take must be a whole number ≥ 0.', 'take');
  return take;
}

export function parseExportFormat(format: unknown): 'md' | 'html' {
  if (format !== 'md' && format !== 'html') throw AppError.badInput('format must be md or html.', 'format');
  return format;
}
