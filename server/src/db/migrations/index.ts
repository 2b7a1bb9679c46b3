// Ordered list of migrations. `npm run migration:generate -w server -- <Name>` appends here.
import { Init1795240494005 } from './1795240494005-Init';

export const MIGRATIONS = [Init1795240494005];
