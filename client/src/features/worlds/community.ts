/** The community list's sorts and genres, as the server names them (world-genre.ts), with labels. */
export const COMMUNITY_SORTS = [
  { value: 'new', label: 'Newest' },
  { value: 'played', label: 'Most played' },
  { value: 'liked', label: 'Most liked' },
] as const;

export const GENRES = [
  { value: 'high-fantasy', label: 'High fantasy' },
  { value: 'dark-fantasy', label: 'Dark fantasy' },
  { value: 'science-fiction', label: 'Science fiction' },
  { value: 'space-opera', label: 'Space opera' },
  { value: 'cyberpunk', label: 'Cyberpunk' },
  { value: 'horror', label: 'Horror' },
  { value: 'post-apocalyptic', label: 'Post-apocalyptic' },
  { value: 'western', label: 'Western' },
  { value: 'noir', label: 'Noir' },
  { value: 'pirate', label: 'Pirate' },
  { value: 'steampunk', label: 'Steampunk' },
  { value: 'mythic', label: 'Mythic' },
  { value: 'modern-urban', label: 'Modern urban' },
] as const;

export const COMMUNITY_PAGE_SIZE = 12;

/** "1 play", "2,431 plays". */
export function countLabel(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
