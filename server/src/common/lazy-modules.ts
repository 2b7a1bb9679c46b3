/**
 * Heavy libraries many processes never use, required on first use instead of at boot: sharp (image
 * work), openai (a remote model, moderation, speech, embeddings), stripe (Stripe billing), ioredis
 * (REDIS_URL), qrcode (setting up two-step verification) and nodemailer (sending mail). Loaded at the
 * top, they were a third of the server's module loading: ~0.3 s of `npm start`'s boot on the embedded
 * defaults and ~1 s of every API test file under jest (which loads modules afresh for each file).
 * The first image, mail or model call pays for its library once; Node caches it after that.
 *
 * Types come from `import type` in each user; only the values go through here.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type Sharp from 'sharp';
import type OpenAI from 'openai';
import type Stripe from 'stripe';
import type Redis from 'ioredis';
import type QRCode from 'qrcode';
import type Nodemailer from 'nodemailer';

/** A CommonJS module's default export, whichever way the package spells it. */
function defaultOf<T>(mod: unknown): T {
  const m = mod as { default?: T; __esModule?: boolean };
  return (m.__esModule && m.default !== undefined ? m.default : mod) as T;
}

/** sharp, called as the library is (`sharp(input, options)`); loaded on the first image. */
export const sharp = ((...args: unknown[]) =>
  (defaultOf<(...a: unknown[]) => unknown>(require('sharp')) as (...a: unknown[]) => unknown)(...args)) as unknown as typeof Sharp;

/** The OpenAI client class (and its error classes as statics). */
export const openAI = (): typeof OpenAI => defaultOf<typeof OpenAI>(require('openai'));

/** The Stripe client class (and `webhooks`, `errors` as statics). */
export const stripeSdk = (): typeof Stripe => defaultOf<typeof Stripe>(require('stripe'));

/** ioredis's client class. */
export const ioredis = (): typeof Redis => defaultOf<typeof Redis>(require('ioredis'));

/** The qrcode library. */
export const qrcode = (): typeof QRCode => defaultOf<typeof QRCode>(require('qrcode'));

/** nodemailer. */
export const nodemailer = (): typeof Nodemailer => defaultOf<typeof Nodemailer>(require('nodemailer'));
