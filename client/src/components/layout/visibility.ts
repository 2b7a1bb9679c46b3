/** SPEC §2: the landing and auth screens hide the navigation. */
export function showsNav(pathname: string): boolean {
  return pathname !== '/' && pathname !== '/auth';
}

/** SPEC §2: the footer is hidden on the story screen, on / and on /auth. */
export function showsFooter(pathname: string): boolean {
  return showsNav(pathname) && !pathname.startsWith('/storychat/') && pathname !== '/storychat';
}
