import { buildSchema, GraphQLError } from 'graphql';
import { graphqlGuards, type GraphQLLimits } from './graphql-limits';

const LIMITS: GraphQLLimits = { maxDepth: 4, maxAliases: 2, maxCost: 100, maxTokens: 200, maxDirectives: 5 };
const schema = buildSchema(`type Q { a: A, n: Int } type A { b: A, n: Int } schema { query: Q }`);

describe('graphql-ws document cache', () => {
  it('parses a text once and validates the document once, then hands back the same document', () => {
    const guards = graphqlGuards(LIMITS);
    const text = '{ a { n } }';
    const doc = guards.parse(text);
    expect(guards.validate(schema, doc)).toEqual([]);
    expect(guards.parse(text)).toBe(doc);
    expect(guards.validate(schema, guards.parse(text))).toEqual([]);
  });

  it('still applies every limit to every new text, and never keeps a rejected one', () => {
    const rejected: string[] = [];
    const guards = graphqlGuards(LIMITS, { rejectedOperation: (limit: string) => rejected.push(limit) } as never);
    const deep = '{ a { b { b { b { b { n } } } } } }';
    for (let i = 0; i < 2; i++) {
      const errors = guards.validate(schema, guards.parse(deep));
      expect(errors.map((e) => e.extensions?.limit)).toEqual(['depth']);
    }
    // Counted each time it is sent: a rejected document is validated again, not remembered.
    expect(rejected).toEqual(['depth', 'depth']);
    expect(guards.validate(schema, guards.parse('{ x }'))[0]).toBeInstanceOf(GraphQLError);
  });

  it('keeps the token limit on parsing', () => {
    const guards = graphqlGuards({ ...LIMITS, maxTokens: 5 });
    expect(() => guards.parse('{ a { b { n } } }')).toThrow(/token/i);
  });
});
