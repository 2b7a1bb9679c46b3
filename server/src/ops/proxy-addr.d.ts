// proxy-addr ships no types; this is the one call the front uses (express uses the same module).
declare module 'proxy-addr' {
  import type { IncomingMessage } from 'node:http';
  function proxyaddr(req: IncomingMessage, trust: (addr: string, i: number) => boolean): string;
  export = proxyaddr;
}
