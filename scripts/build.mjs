// `npm run build`: install if needed, then build the server and the client when their sources changed
// (`--force` rebuilds both).
import { ensureBuilt, ensureInstalled } from './lib.mjs';

ensureInstalled();
ensureBuilt({ force: process.argv.includes('--force') });
