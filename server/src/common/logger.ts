import type { Config } from '../config/env';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
type Level = (typeof LEVELS)[number];

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Structured one-line JSON logs on stderr (pino-compatible fields), filtered by LOG_LEVEL. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  const min = config.logLevel === 'silent' ? Infinity : LEVELS.indexOf(config.logLevel as Level);
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS.indexOf(level) < min) return;
    const extra = fields?.err instanceof Error ? { ...fields, err: { message: fields.err.message, stack: fields.err.stack } } : fields;
    process.stderr.write(JSON.stringify({ level, time: new Date().toISOString(), msg, ...extra }) + '\n');
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}
