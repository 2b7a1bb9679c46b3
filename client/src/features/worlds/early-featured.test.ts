import { parse, print } from 'graphql';
import { WorldsPage_featuredWorldsDocument } from '../../gql/graphql';
import { EARLY_FEATURED_QUERY } from './early-featured';

describe('the early featured-worlds request (entry bundle)', () => {
  it('selects exactly what WorldsPage_featuredWorlds selects, plus __typename for the cache', () => {
    const withoutTypename = EARLY_FEATURED_QUERY.replace(/\s__typename\b/g, '');
    expect(print(parse(withoutTypename))).toBe(print(WorldsPage_featuredWorldsDocument));
    expect(EARLY_FEATURED_QUERY.match(/__typename/g)).toHaveLength(2);
  });
});
