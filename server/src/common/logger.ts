import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';
import type { Config } from '../config/env';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose every line carries `bindings` (e.g. a component name). */
  child(bindings: Record<string, unknown>): Logger;
}

/**
 * The request a piece of code runs for. The HTTP front (server/src/ops/front.ts) enters it per
 * request, so every log line written while serving that request — in a resolver, a service, the
 * error formatter — carries the same `reqId` without anyone passing it along.
 */
export const requestScope = new AsyncLocalStorage<RequestScope>();

export interface RequestScope {
  reqId: string;
  /**
   * Why the request failed, when a failure expected during an outage (the database unreachable) was
   * answered: said once, on the request's access-log line, instead of one more error line.
   */
  cause?: string;
}

/** Notes an expected failure's cause for the request's access-log line (no error line of its own). */
export function noteRequestCause(cause: string): boolean {
  const scope = requestScope.getStore();
  if (!scope) return false;
  scope.cause = cause;
  return true;
}

/**
 * One pino destination per process: every logger (app, services, tests' several apps) shares it.
 * Synchronous, so the last lines before `process.exit` are never lost (shutdown logs matter most).
 */
let destination: pino.DestinationStream | undefined;
const stderr = () => (destination ??= pino.destination({ fd: 2, sync: true }));

/** Structured one-line JSON logs on stderr (pino), filtered by LOG_LEVEL, with the current request id. */
export function createLogger(config: Pick<Config, 'logLevel'>, stream?: pino.DestinationStream): Logger {
  const base = pino(
    {
      level: config.logLevel,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const scope = requestScope.getStore();
        return scope ? { reqId: scope.reqId } : {};
      },
      serializers: { err: pino.stdSerializers.err },
    },
    stream ?? stderr(),
  );
  return wrap(base);
}

function wrap(p: pino.Logger): Logger {
  // pino's call shape is (fields, msg); ours is (msg, fields), which reads better at call sites.
  return {
    debug: (msg, fields) => (fields ? p.debug(fields, msg) : p.debug(msg)),
    info: (msg, fields) => (fields ? p.info(fields, msg) : p.info(msg)),
    warn: (msg, fields) => (fields ? p.warn(fields, msg) : p.warn(msg)),
    error: (msg, fields) => (fields ? p.error(fields, msg) : p.error(msg)),
    child: (bindings) => wrap(p.child(bindings)),
  };
}
