import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { nodemailer } from '../../common/lazy-modules';
import type { Logger } from '../../common/logger';
import type { Config } from '../../config/env';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about, printed to the console when mail goes to the outbox. */
  link?: string;
  /** The client address of whoever asked for it (the owner asking from an address they used has an allowance of their own). */
  requesterIp?: string;
  /**
   * Tells the owner about a change a session of their own account made (an authenticator, a new
   * address): always sent, still counted. Strangers cannot cause these.
   */
  alert?: boolean;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Where mail goes: 'smtp', or 'outbox' (files under the data folder). */
  readonly kind: 'smtp' | 'outbox';
}

/**
 * Mail through nodemailer: SMTP when `SMTP_URL` is set; otherwise (the embedded default) each mail
 * is written as an .eml file to the outbox under the data folder and its link is printed, so
 * `npm start` alone still lets someone reset a password.
 */
export function createMailer(config: Pick<Config, 'mail'>, logger: Logger): Mailer {
  const { smtpUrl, from, outboxDir } = config.mail;
  if (smtpUrl) {
    const transport: Transporter = nodemailer().createTransport(smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      },
    };
  }
  const transport = nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = (await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })) as { message: Buffer };
      await fs.mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(3).toString('hex')}.eml`);
      await fs.writeFile(file, info.message);
      // The address stays out of the log line: only the file and the link.
      logger.info(`mail written to the outbox (no SMTP_URL): ${mail.subject}${mail.link ? ` — ${mail.link}` : ''}`, { file });
    },
  };
}
