import { AppError } from '../../common/app-error';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX, PASSWORD_MIN } from './password';

let common: Set<string> | undefined;
/**
 * The 49k passwords that top the leaked-password lists (zxcvbn's common list, packaged from the
 * registry), lower-cased: "password", "12345678", "iloveyou" are the first an attacker tries. Built on
 * first use (a few ms), then kept.
 */
function commonPasswords(): Set<string> {
  return (common ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase())));
}

// Pragmatic address check (RFC 5321 lengths, one @, a dotted domain, no spaces or markup characters);
// the real proof of an address is a confirmation mail, which the SPEC does not show.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// Letters and digits of any script, spaces and a few joiners; no markup, quotes-as-code or controls.
const USERNAME = /^[\p{L}\p{N}](?:[\p{L}\p{N} _.'-]*[\p{L}\p{N}])?$/u;

const USERNAME_MIN = 2;
const USERNAME_MAX = 40;

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw AppError.badInput(`${field} is required.`, field);
  return value;
}

export function normalizeEmail(value: unknown): string {
  const email = requireString(value, 'email').trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw AppError.badInput('Please enter a valid email address.', 'email');
  return email;
}

export function validateUsername(value: unknown): string {
  const username = requireString(value, 'username').trim().replace(/\s+/g, ' ');
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) {
    throw AppError.badInput(`Username must be ${USERNAME_MIN}–${USERNAME_MAX} characters.`, 'username');
  }
  if (!USERNAME.test(username)) {
    throw AppError.badInput("Username may contain letters, numbers, spaces, and . _ ' - only.", 'username');
  }
  return username;
}

let estimator: ZxcvbnFactory | undefined;
/** zxcvbn's guess estimator with its common dictionaries and keyboard graphs, built on first use (≈35 ms), then kept. */
function strength(): ZxcvbnFactory {
  return (estimator ??= new ZxcvbnFactory({ dictionary: { ...dictionary, userInputs: ['taleforge', 'tale forge'] }, graphs: adjacencyGraphs }));
}
/**
 * zxcvbn's score (0–4) a password needs: 2 means roughly 10^6+ guesses, out of reach of an online
 * attack under our sign-in limits. Repeats ("aaaaaaaa"), sequences ("abcdefgh"), keyboard walks
 * ("qwertyui"), doubled numbers ("12341234") and the site's, the player's own name or address
 * score 0–1.
 */
const MIN_SCORE = 2;

const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The player's own name or address (its part before the @) makes up at least half of the password:
 * the first thing someone who knows the account tries. zxcvbn counts each piece as a user input, but
 * several pieces in a row can still score well.
 */
function mostlyOwnName(password: string, userInputs: string[]): boolean {
  const p = letters(password);
  return userInputs
    .map((u) => letters(u.split('@')[0] ?? u))
    .some((name) => name.length >= 4 && (name.includes(p) || (p.includes(name) && name.length * 2 >= p.length)));
}

/**
 * Passwords are taken as typed (no trimming): every character counts, including spaces.
 * `userInputs` (the email, the username) count as easy to guess inside the password.
 */
export function validatePassword(value: unknown, userInputs: string[] = []): string {
  const password = requireString(value, 'password');
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw AppError.badInput(`Password must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters.`, 'password');
  }
  if (commonPasswords().has(password.toLowerCase())) {
    throw AppError.badInput('This password is too common and easy to guess. Please choose another one.', 'password');
  }
  const inputs = userInputs.flatMap((u) => [u, ...u.split(/[@\s._-]+/)]).filter((u) => u.length >= 3);
  if (mostlyOwnName(password, userInputs) || strength().check(password, inputs).score < MIN_SCORE) {
    throw AppError.badInput('This password is too easy to guess. Add a few more words or characters that are hard to guess.', 'password');
  }
  return password;
}
