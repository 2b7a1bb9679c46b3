/**
 * Setting text: what the story page shows (and the immersive styles are derived from) when the story
 * moves somewhere new. Two or three sentences in the genre's register, naming the place.
 */
import type { Genre } from './genres';
import type { Rng } from './prng';
import { upperFirst } from './text';

const SHAPES = [
  '{Place} was {place}, or had been once: {sky}, and {sensory} hung over everything.',
  '{Place} lay beyond {place}. Here {sky}, and {sensory} was everywhere.',
  'At {Place}, {sky}. The locals spoke of {threat}, and of {artifact} that no one had seen in years.',
  '{Place}: a place of {sensory}, where {sky}. Few travellers stayed long, and fewer left unchanged.',
];

export function describeSetting(genre: Genre, placeName: string, rng: Rng): string {
  const t = rng.pick(SHAPES);
  const text = t
    .replace('{Place}', placeName.replace(/^the /, 'The '))
    .replace('{place}', rng.pick(genre.places))
    .replace('{sky}', rng.pick(genre.sky))
    .replace('{sensory}', rng.pick(genre.sensory))
    .replace('{threat}', rng.pick(genre.threats))
    .replace('{artifact}', rng.pick(genre.artifacts));
  return upperFirst(text);
}
