/**
 * The entry script, kept to a few KB so it runs one round trip after the HTML: it starts, all at once,
 * every download the first route needs — its page chunk and, off the landing page, the app layout and
 * the Apollo client (each import pulls its dependencies, React included, in parallel), plus on /worlds
 * the featured-worlds request — then hands over to boot.tsx once React is in.
 */
import { readSession } from './apollo/session-store';
import { fetchFeaturedEarly } from './features/worlds/early-featured';
import { loadApolloLayout, needsApollo, pageChunks, pageFor } from './route-chunks';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

const page = pageFor(window.location.pathname);
const swallow = () => {}; // a failed download is retried (and reported) where the chunk is used
if (page) pageChunks[page]().catch(swallow);
if (needsApollo(page)) {
  loadApolloLayout().catch(swallow);
  import('./apollo/client').catch(swallow);
}
// Anonymous visitors only: a signed-in visitor's query goes through the Apollo client (it carries the token).
const early = page === 'worlds' && !readSession() ? fetchFeaturedEarly() : undefined;

import('./boot').then(
  ({ boot }) => boot(container, early),
  () => {
    // No app without its code (offline, or a deploy replaced the files): say so instead of spinning.
    container.textContent = 'Taleforge could not load. Check your connection and reload the page.';
  },
);
