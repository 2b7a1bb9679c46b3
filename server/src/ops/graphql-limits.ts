import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  parse,
  specifiedRules,
  validate,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type Source,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { badText, EDGE_TEXT_MESSAGE, findBadText } from '../common/edge-text';
import type { Metrics } from './metrics';
import { PARTY_MAX_MEMBERS } from '../modules/parties/party-rules';

export interface GraphQLLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxTokens: number;
  maxDirectives: number;
}

/**
 * Cost model (GraphQL Armor's): a leaf field costs 1, a field with a selection 2, and everything
 * nested under a field weighs DEPTH_FACTOR times more per level. Deep or wide documents get expensive
 * fast, so a handful of legitimate client operations stay far below the limit while fragment or
 * alias amplification does not. Introspection is priced like anything else (the API is public and
 * introspection stays on, but `__type { fields { type { fields … } } }` can recurse).
 */
const LEAF_COST = 1;
const OBJECT_COST = 2;
const DEPTH_FACTOR = 1.5;
/**
 * Inside `__schema`/`__type` nesting is priced at a gentler factor and capped by its own depth: the
 * standard introspection query (GraphiQL's, codegen's) is 15 levels deep by construction and costs
 * about 1,250 here, so it passes alone, while four aliased copies, or a recursion through
 * `fields { type { fields … } } }` deeper than the standard query, do not.
 */
const INTROSPECTION_DEPTH_FACTOR = 1.2;
const INTROSPECTION_MAX_DEPTH = 16;

/**
 * Lists multiply (graphql-query-complexity's estimators, GraphQL Armor's cost rule): the answer holds
 * one value per field per item of every list above it. A `limit`/`first` argument sets the size of
 * its field's list, or, on an object field (`storyline(limit: 200)`), of the lists inside it; a
 * variable counts as its default in the operation, else as the argument's maximum. A list without
 * such an argument (myCharacters, missionHistory) counts DEFAULT_LIST_SIZE items, or its known bound
 * (BOUNDED_LISTS).
 */
export const DEFAULT_LIST_SIZE = 50;
/** The most a page argument accepts (the resolvers refuse more); unknown ones count 100. */
const PAGE_ARG_MAX: Record<string, number> = { 'Character.storyline': 200, 'Query.featuredWorlds': 100 };
const PAGE_ARG_FALLBACK_MAX = 100;
const PAGE_ARGS = ['limit', 'first'];
/**
 * A page argument on an object field sizes only these lists inside it (`storyline(limit)` pages its
 * chapters; its `latestTakes` are a list of their own, counted at DEFAULT_LIST_SIZE).
 */
const PAGED_LISTS: Record<string, readonly string[]> = { 'Character.storyline': ['chapters'] };
/**
 * Lists whose size the rules bound, counted at that bound: a party's members (it seats at most
 * PARTY_MAX_MEMBERS players, so a list of parties can read each member's fields) and a party round's
 * companions' checks (every member but the story's owner).
 */
const BOUNDED_LISTS: Record<string, number> = { 'Party.members': PARTY_MAX_MEMBERS, 'Chapter.partyChecks': PARTY_MAX_MEMBERS - 1 };
/**
 * Large text fields weigh by their size limit, about one unit per kilobyte: a chapter's text is up to
 * 6,000 characters; a section of what the storyteller remembered is a part of a prompt of up to
 * 32k tokens (~16 KB a section on average); an export holds a whole story (counted as a megabyte:
 * the response byte cap, GRAPHQL_MAX_RESPONSE_BYTES, stops a larger one).
 */
const TEXT_WEIGHT: Record<string, number> = { 'Chapter.text': 6, 'RememberedSection.text': 16, 'StoryExportFile.content': 1000 };

interface Measured {
  depth: number;
  introspectionDepth: number;
  aliases: number;
  directives: number;
  /** The larger of the depth-weighted shape cost and the estimated number of values in the answer. */
  cost: number;
  /** The estimated number of values in the answer, lists multiplied. */
  values: number;
}

/**
 * Walks one operation with fragments expanded in place (each spread counts every time it is used,
 * which is what the server would execute). Stops early once every limit is exceeded, so a hostile
 * document cannot make the measurement itself expensive.
 */
function measure(op: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>, limits: GraphQLLimits, schema?: GraphQLSchema): Measured {
  const m: Measured = { depth: 0, introspectionDepth: 0, aliases: 0, directives: op.directives?.length ?? 0, cost: 0, values: 0 };
  // Every field costs at least 1 and nesting only multiplies, so once more fields than maxCost were
  // visited the operation is over budget whatever the rest holds: stop (fragment bombs end here).
  let visited = 0;
  const over = () => visited > limits.maxCost;

  /** Returns the cost of a selection set at `depth` (depth of its fields); `path` guards fragment cycles. */
  const walk = (set: SelectionSetNode, depth: number, introspection: boolean, path: Set<string>): number => {
    let cost = 0;
    for (const sel of set.selections) {
      if (over()) return cost;
      m.directives += sel.directives?.length ?? 0;
      if (sel.kind === Kind.FIELD) {
        visited++;
        if (sel.alias) m.aliases++;
        const inIntrospection = introspection || sel.name.value === '__schema' || sel.name.value === '__type';
        if (inIntrospection) m.introspectionDepth = Math.max(m.introspectionDepth, depth);
        else if (sel.name.value !== '__typename') m.depth = Math.max(m.depth, depth);
        if (sel.selectionSet) {
          const factor = inIntrospection ? INTROSPECTION_DEPTH_FACTOR : DEPTH_FACTOR;
          cost += OBJECT_COST + factor * walk(sel.selectionSet, depth + 1, inIntrospection, path);
        } else {
          cost += LEAF_COST;
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        cost += walk(sel.selectionSet, depth, introspection, path);
      } else {
        const name = sel.name.value;
        const frag = fragments.get(name);
        if (!frag || path.has(name)) continue; // unknown or cyclic: the standard rules report those
        path.add(name);
        m.directives += frag.directives?.length ?? 0;
        cost += walk(frag.selectionSet, depth, introspection, path);
        path.delete(name);
      }
    }
    return cost;
  };
  const shape = Math.max(walk(op.selectionSet, 1, false, new Set()), visited);
  m.values = estimateValues(op, fragments, schema, limits.maxCost);
  m.cost = Math.max(shape, m.values);
  return m;
}

/**
 * How many values the answer holds at most: every field counts once per item of the lists above it.
 * Introspection is left to its own depth rule (its lists are the schema's, not the database's).
 * Stops counting past `cap`: the operation is refused then anyway.
 */
function estimateValues(op: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>, schema: GraphQLSchema | undefined, cap: number): number {
  let total = 0;
  // Selections visited: __typename adds no value, so a fragment bomb of __typename alone would never
  // pass `cap`; more visits than `cap` means more fields than the budget anyway.
  let visits = 0;
  const root = schema
    ? op.operation === 'query'
      ? schema.getQueryType()
      : op.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType()
    : null;
  // Fragments name their type condition; without a schema (unit measurements) the walk stays untyped.
  const schemaType = (current: GraphQLNamedType | null, name: string) => (schema ? (schema.getType(name) ?? null) : current);
  const pageOf = (field: FieldNode, def: GraphQLField<unknown, unknown> | undefined, key: string): number | undefined => {
    for (const arg of field.arguments ?? []) {
      if (!PAGE_ARGS.includes(arg.name.value)) continue;
      if (arg.value.kind === Kind.INT) return Number(arg.value.value);
      if (arg.value.kind === Kind.VARIABLE) {
        const name = arg.value.name.value;
        const dflt = op.variableDefinitions?.find((v) => v.variable.name.value === name)?.defaultValue;
        return dflt?.kind === Kind.INT ? Number(dflt.value) : (PAGE_ARG_MAX[key] ?? PAGE_ARG_FALLBACK_MAX);
      }
      return PAGE_ARG_MAX[key] ?? PAGE_ARG_FALLBACK_MAX;
    }
    // Not given: the schema's default for it (storyline's limit is 50), if the field has one.
    const declared = def?.args.find((a) => PAGE_ARGS.includes(a.name));
    if (declared) return typeof declared.defaultValue === 'number' ? declared.defaultValue : (PAGE_ARG_MAX[key] ?? PAGE_ARG_FALLBACK_MAX);
    return undefined;
  };
  /** `page` is the page an object field above set, with the names of the lists it sizes. */
  type Page = { size: number; lists: readonly string[] | null } | undefined;
  const walk = (set: SelectionSetNode, type: GraphQLNamedType | null, items: number, page: Page, path: Set<string>) => {
    for (const sel of set.selections) {
      if (total > cap) return;
      if (++visits > cap) {
        total = cap + 1;
        return;
      }
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet, sel.typeCondition ? schemaType(type, sel.typeCondition.name.value) : type, items, page, path);
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (!frag || path.has(frag.name.value)) continue;
        path.add(frag.name.value);
        walk(frag.selectionSet, schemaType(type, frag.typeCondition.name.value), items, page, path);
        path.delete(frag.name.value);
        continue;
      }
      const name = sel.name.value;
      if (name === '__typename') {
        // Answered from the schema with no data read and a few bytes at most; Apollo Client adds it
        // to every selection set, so counting it would charge each client operation for its
        // library's bookkeeping (the story page's 200 chapters: +200). Aliased repeats still count
        // in the shape cost and the alias limit.
        continue;
      }
      if (name === '__schema' || name === '__type') {
        total += items;
        continue;
      }
      const def = type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields()[name] : undefined;
      const key = `${type?.name ?? '?'}.${name}`;
      total += items * (TEXT_WEIGHT[key] ?? 1);
      if (!sel.selectionSet) continue;
      const own = pageOf(sel, def, key);
      const isList = def ? isListType(getNullableType(def.type)) : false;
      // A list takes its own page argument, else the page set above it when that page sizes it
      // (storyline's chapters), else the default.
      const inherited = page && (page.lists === null || page.lists.includes(name)) ? page.size : undefined;
      const size = isList ? (own ?? inherited ?? BOUNDED_LISTS[key] ?? DEFAULT_LIST_SIZE) : 1;
      const next: Page = isList || own === undefined ? undefined : { size: own, lists: PAGED_LISTS[key] ?? null };
      walk(sel.selectionSet, def ? getNamedType(def.type) : null, items * size, next, path);
    }
  };
  walk(op.selectionSet, root ?? null, 1, undefined, new Set());
  return total;
}

/** Validation rule enforcing depth, alias, directive and cost limits on every operation of a document. */
function limitsRule(limits: GraphQLLimits, metrics?: Metrics): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const doc = context.getDocument();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(op) {
        const m = measure(op, fragments, limits, context.getSchema());
        const name = op.name ? ` "${op.name.value}"` : '';
        const report = (limit: string, message: string) => {
          metrics?.rejectedOperation(limit);
          context.reportError(new GraphQLError(message, { nodes: [op], extensions: { limit } }));
        };
        if (m.introspectionDepth > INTROSPECTION_MAX_DEPTH) {
          report('depth', `Introspection in operation${name} is nested ${m.introspectionDepth} levels deep; the maximum is ${INTROSPECTION_MAX_DEPTH}.`);
        }
        if (m.depth > limits.maxDepth) report('depth', `Operation${name} is nested ${m.depth} levels deep; the maximum is ${limits.maxDepth}.`);
        if (m.aliases > limits.maxAliases) report('aliases', `Operation${name} uses ${m.aliases} aliases; the maximum is ${limits.maxAliases}.`);
        if (m.directives > limits.maxDirectives)
          report('directives', `Operation${name} uses ${m.directives} directives; the maximum is ${limits.maxDirectives}.`);
        if (m.cost > limits.maxCost) report('cost', `Operation${name} costs ${Math.round(m.cost)}; the maximum is ${limits.maxCost}.`);
        return false; // measured here; no need to visit the operation's nodes again
      },
    };
  };
}

/**
 * graphql-ws parses and validates the document of every subscribe, and a client sends the same few
 * operation texts over and over (every chapter opens a `chapterStream`): parsing and validating one
 * costs ≈ 0.4 ms, the most expensive part of a subscribe. Documents are kept by their text (bounded,
 * least recently used first out), and a document's successful validation is remembered with it. The
 * limits still apply to every new text; a text that fails to parse or validate is never kept, so it
 * is checked (and counted in the rejection metric) each time it is sent.
 */
const DOCUMENT_CACHE_MAX = 500;
/** Longer texts are parsed every time: a few huge documents must not evict the clients' everyday ones. */
const DOCUMENT_CACHE_MAX_CHARS = 16_384;

/** The edge rule (common/edge-text.ts) for string literals written into the document. */
const edgeTextRule: ValidationRule = (context) => ({
  StringValue(node) {
    if (badText(node.value)) context.reportError(new GraphQLError(EDGE_TEXT_MESSAGE, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } }));
  },
});

/** The edge rule for an operation's variables, as the GraphQL error both transports answer. */
export function variablesEdgeError(variables: unknown): GraphQLError | null {
  const bad = findBadText(variables, 'variables');
  return bad ? new GraphQLError(EDGE_TEXT_MESSAGE, { extensions: { code: 'BAD_USER_INPUT', field: bad, http: { status: 400 } } }) : null;
}

/** Apollo's side of the variables rule (graphql-ws applies it in ops/ws-guard.ts). */
export const edgeVariablesPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request }) {
        const e = variablesEdgeError(request.variables);
        if (e) throw e;
      },
    };
  },
};

/** What both transports use: Apollo (HTTP) and graphql-ws (subscriptions) enforce the same limits. */
export function graphqlGuards(limits: GraphQLLimits, metrics?: Metrics) {
  const rule = limitsRule(limits, metrics);
  const rules = [...specifiedRules, rule, edgeTextRule];
  const documents = new Map<string, DocumentNode>();
  const valid = new WeakMap<DocumentNode, GraphQLSchema>();
  return {
    /** For ApolloServer's `validationRules` (added to the specified rules; Apollo keeps its own document cache). */
    validationRules: [rule, edgeTextRule],
    /** For ApolloServer's `parseOptions`: the parser stops reading huge documents early. */
    parseOptions: { maxTokens: limits.maxTokens },
    /** graphql-ws `parse` option (cached by text). */
    parse: (source: string | Source): DocumentNode => {
      const text = typeof source === 'string' ? source : source.body;
      const hit = documents.get(text);
      if (hit) {
        documents.delete(text); // most recently used last
        documents.set(text, hit);
        return hit;
      }
      const doc = parse(source, { maxTokens: limits.maxTokens });
      if (text.length <= DOCUMENT_CACHE_MAX_CHARS) {
        documents.set(text, doc);
        if (documents.size > DOCUMENT_CACHE_MAX) documents.delete(documents.keys().next().value as string);
      }
      return doc;
    },
    /** graphql-ws `validate` option (a cached document that passed once passes again). */
    validate: (schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] => {
      if (valid.get(document) === schema) return [];
      const errors = validate(schema, document, rules);
      if (errors.length === 0) valid.set(document, schema);
      return errors;
    },
  };
}

/** The measured figures of a document's operations (for tests and the README's cost table). */
export function measureDocument(source: string, limits: GraphQLLimits, schema?: GraphQLSchema): Measured[] {
  const doc = parse(source);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION).map((op) => measure(op, fragments, limits, schema));
}
