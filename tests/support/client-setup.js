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

// findBy… and waitFor poll until their condition holds; Testing Library gives up after 1 s by default.
// A step such as "a chapter completes → the page reads the story again → the choices render" is a
// chain of promises and lazy chunks that took over a second with four test processes on two cores
// (StoryPage.test.tsx failed on it at load average 16). These waits judge what appears, never how fast.
// Through @testing-library/dom: requiring the React package here, before jest's globals exist, would
// skip its automatic cleanup between tests.
require('@testing-library/dom').configure({ asyncUtilTimeout: 10_000 });
