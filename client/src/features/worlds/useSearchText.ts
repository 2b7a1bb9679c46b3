import { useEffect, useState } from 'react';

/** How long typing must pause before a search goes out, so each keystroke is not a request. */
const SEARCH_PAUSE_MS = 300;

/**
 * The world lists' search box (Featured and Community behave alike): what is typed, and the trimmed
 * text to search for once typing pauses. `onSearch` runs when that text changes (e.g. back to page 1).
 */
export function useSearchText(onSearch?: () => void): { typed: string; setTyped: (text: string) => void; search: string } {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(typed.trim());
      onSearch?.();
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(t);
    // onSearch is a reset callback; a new function each render must not restart the pause.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);
  return { typed, setTyped, search };
}
