/**
 * The pure rules of party play (issue 34): invite codes, the composed action of a round, turn order.
 * No database here: party.service.ts applies them.
 */
import crypto from 'node:crypto';
import { AppError } from '../../common/app-error';

/** Players in a party, the host included. */
export const PARTY_MAX_MEMBERS = 6;
/** Invites working at once per party (each is a row; the host revokes one to make another). */
export const PARTY_INVITES_MAX = 20;
/** Characters of one member's action in a round (the round's action names every member's). */
export const PARTY_ACTION_MAX = 300;
/** Characters of a round's composed action: every member's name and action, with their separators. */
export const PARTY_ROUND_ACTION_MAX = PARTY_MAX_MEMBERS * (80 + 2 + PARTY_ACTION_MAX + 2);

/** Crockford's base 32 (no I, L, O, U): read aloud or typed from a phone without ambiguity. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 10 symbols of 5 bits: 50 bits from the CSPRNG, shown as XXXXX-XXXXX. */
const CODE_SYMBOLS = 10;

/** A new invite code (50 bits of crypto randomness); only its hash is stored. */
export function newInviteCode(): string {
  const bytes = crypto.randomBytes(CODE_SYMBOLS);
  let out = '';
  // 256 is a multiple of 32, so `byte % 32` is uniform.
  for (const b of bytes) out += ALPHABET[b % 32];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/**
 * The end of a code kept beside its hash: its last 4 symbols (20 of its 50 bits), so the host can tell
 * their invites apart. Not enough to join with, and the stored hash is slow (inviteCodeHash): a copy of
 * the database does not give the other 30 bits back within an invite's life.
 */
export function inviteCodeEnd(code: string): string {
  return code.replace(/[\s-]/g, '').slice(-4).toUpperCase();
}

/** A code as the host's invite list shows it: •••••-•XXXX (null when its end was not kept). */
export function maskedInviteCode(end: string | null): string | null {
  return end ? `•••••-•${end}` : null;
}

/** A code's symbols, case, dashes and look-alikes (I, L → 1; O → 0) folded; null when it cannot be one. */
function codeSymbols(code: unknown): string | null {
  if (typeof code !== 'string' || code.length > 40) return null;
  const symbols = code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (symbols.length !== CODE_SYMBOLS || [...symbols].some((c) => !ALPHABET.includes(c))) return null;
  return symbols;
}

/**
 * scrypt (N 2^14, r 8: ~16 MB and tens of milliseconds a code) on the threadpool, never the event
 * loop. One fixed salt, since a code is looked up by its hash; the code's 50 random bits are what a
 * search must cover, and with 20 of them in the host's list the rest must still cost years of CPU.
 */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const SCRYPT_SALT = 'taleforge/party-invite/v2';
const scrypt = (symbols: string) =>
  new Promise<string>((resolve, reject) => crypto.scrypt(symbols, SCRYPT_SALT, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key.toString('hex')))));

/** The stored form of a new code: its slow hash (see above); null when it cannot be a code. */
export async function inviteCodeHash(code: unknown): Promise<string | null> {
  const symbols = codeSymbols(code);
  return symbols ? scrypt(symbols) : null;
}

/**
 * Every stored form a code may have, to look it up: the slow hash, and the plain SHA-256 that invites
 * made before it were stored with (they expire within the invite limit's days). Null for no code.
 */
export async function inviteCodeHashes(code: unknown): Promise<string[] | null> {
  const symbols = codeSymbols(code);
  return symbols ? [await scrypt(symbols), crypto.createHash('sha256').update(symbols).digest('hex')] : null;
}

export interface RoundAction {
  name: string;
  text: string;
}

/**
 * The action a round's chapter answers, naming who did what in seat order:
 * "Mira: climbs the bell tower. Tom: questions the innkeeper."
 */
export function composeRoundAction(actions: RoundAction[]): string {
  return actions
    .map((a) => {
      const t = a.text.trim().replace(/\s+/g, ' ');
      return `${a.name.trim()}: ${/[.!?…"')\]]$/.test(t) ? t : `${t}.`}`;
    })
    .join(' ');
}

/** The member seated after `seat` (wrapping round to the first); null when nobody is seated. */
export function nextInTurn<T extends { seat: number }>(members: T[], seat: number | null): T | null {
  const seated = [...members].sort((a, b) => a.seat - b.seat);
  if (seated.length === 0) return null;
  return (seat === null ? undefined : seated.find((m) => m.seat > seat)) ?? seated[0]!;
}

export function parseMode(v: unknown): 'live' | 'post' {
  if (v === 'live' || v === 'post') return v;
  throw AppError.badInput('mode must be live or post.', 'mode');
}

export function seconds(v: unknown, field: string, def: number, min: number, max: number): number {
  if (v === undefined || v === null) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw AppError.badInput(`${field} must be a whole number from ${min} to ${max}.`, field);
  return v;
}

/** A short "Previously…" line of a chapter: its first sentences, up to ~240 characters. */
export function chapterGist(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= 240) return flat;
  const cut = flat.slice(0, 240);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > 80 ? cut.slice(0, end + 1) : `${cut.replace(/\s+\S*$/, '')}…`;
}
