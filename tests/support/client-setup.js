// Jest setup for the client project (jsdom). jsdom lacks a few web APIs that React Router and Apollo
// touch; provide small stand-ins. Tests pass their own fake `fetch` explicitly, so none is installed.
const { TextEncoder, TextDecoder } = require('node:util');

if (typeof globalThis.TextEncoder === 'undefined') globalThis.TextEncoder = TextEncoder;
if (typeof globalThis.TextDecoder === 'undefined') globalThis.TextDecoder = TextDecoder;

if (typeof globalThis.structuredClone === 'undefined') {
  globalThis.structuredClone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
}

// React Router's data routers build a Request per navigation (for loaders/actions, which this app
// does not use); only url, method, signal and headers are read.
if (typeof globalThis.Request === 'undefined') {
  globalThis.Request = class Request {
    constructor(input, init = {}) {
      this.url = typeof input === 'string' ? input : String(input && input.url ? input.url : input);
      this.method = (init.method || 'GET').toUpperCase();
      this.signal = init.signal || new AbortController().signal;
      this.headers = new Map(Object.entries(init.headers || {}));
      this.body = init.body ?? null;
    }
  };
}

// jsdom does not implement scrolling; React Router's <ScrollRestoration> calls it.
window.scrollTo = () => {};

// jsdom does not lay out, so it has no scrollIntoView (the story screen follows the streaming text).
if (typeof Element !== 'undefined' && !Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
