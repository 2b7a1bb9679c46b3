import type { DataSource } from 'typeorm';
import type { Logger } from '../../common/logger';
import type { Config } from '../../config/env';
import type { AttemptBudgets } from '../shared/attempt-budgets';
import type { Mail, Mailer } from './mailer';

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Every mail goes through one budget per recipient address, per hour and per day, whatever its kind
 * (sign-up notice, confirmation, reset link, sign-in code, email change) and whoever asked: an address
 * cannot be flooded by asking for mail in its name from many clients. Past the budget the mail is
 * dropped silently (the request that caused it has answered already, the same for every address).
 * The owner asking from an address they signed in from before spends an allowance of its own, so
 * strangers spending the address's budget never lock its owner out of a reset. Alerts about changes
 * made by the account's own sessions are always sent (and counted).
 */
export function budgetedMailer(
  inner: Mailer,
  deps: { dataSource: DataSource; budgets: AttemptBudgets; config: Pick<Config, 'mailBudget'>; logger: Logger },
): Mailer {
  const { perAddressPerHour, perAddressPerDay } = deps.config.mailBudget;
  const ownerAsks = async (mail: Mail): Promise<boolean> => {
    if (!mail.requesterIp) return false;
    const rows = (await deps.dataSource.query(`SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.ip = $2 LIMIT 1`, [
      mail.to,
      mail.requesterIp.slice(0, 64),
    ])) as unknown[];
    return rows.length > 0;
  };
  return {
    kind: inner.kind,
    async send(mail) {
      const to = mail.to.trim().toLowerCase();
      const who = (await ownerAsks(mail)) ? 'owner' : 'anyone';
      const hour = `mail:${who}:hour:${to}`;
      const day = `mail:${who}:day:${to}`;
      const inHour = await deps.budgets.take(hour, perAddressPerHour, HOUR);
      const inDay = inHour.allowed || mail.alert ? await deps.budgets.take(day, perAddressPerDay, DAY) : null;
      if (!mail.alert && !(inHour.allowed && inDay?.allowed)) {
        if (inHour.allowed) await deps.budgets.refund(hour);
        // The address stays out of the log line, as elsewhere.
        deps.logger.info('mail not sent: its address has had its share of mail for now', { subject: mail.subject });
        return;
      }
      await inner.send(mail);
    },
  };
}
