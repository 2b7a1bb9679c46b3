// @ts-check
/**
 * Local graphql-codegen plugin: one named hook per operation, as a thin wrapper over the hooks of
 * `@apollo/client/react` and the TypedDocumentNode emitted by `typed-document-node`.
 *
 * Why not typescript-react-apollo: it imports hooks from `@apollo/client`, which Apollo Client 4 no
 * longer exports (STACK.md §8). Names follow `namingConvention: 'keep'` (see codegen.ts):
 *   query    Foo_bar → useFoo_barQuery(options)        + useFoo_barLazyQuery(options)
 *   mutation Foo_bar → useFoo_barMutation(options)
 *   subscription     → useFoo_barSubscription(options)
 * Operations whose variables are all optional take an optional `options` argument.
 * Output is sorted by operation name so it never depends on file discovery order.
 */
const { Kind } = require('graphql');

const SUFFIX = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' };

/** @param {import('graphql').OperationDefinitionNode} op */
function hasRequiredVariables(op) {
  return (op.variableDefinitions || []).some((v) => v.type.kind === Kind.NON_NULL_TYPE && v.defaultValue === undefined);
}

/** @type {import('@graphql-codegen/plugin-helpers').PluginFunction} */
const plugin = (_schema, documents) => {
  /** @type {import('graphql').OperationDefinitionNode[]} */
  const operations = [];
  for (const doc of documents) {
    for (const def of doc.document ? doc.document.definitions : []) {
      if (def.kind === Kind.OPERATION_DEFINITION) {
        if (!def.name) throw new Error(`Anonymous operation in ${doc.location}: name it <Component>_<field>`);
        operations.push(def);
      }
    }
  }
  operations.sort((a, b) => (a.name.value < b.name.value ? -1 : a.name.value > b.name.value ? 1 : 0));

  const used = new Set();
  const blocks = [];
  for (const op of operations) {
    const name = op.name.value;
    const suffix = SUFFIX[op.operation];
    const data = `${name}${suffix}`;
    const vars = `${name}${suffix}Variables`;
    const doc = `${name}Document`;
    const opt = hasRequiredVariables(op) ? 'options' : 'options?';
    if (op.operation === 'query') {
      used.add('useQuery').add('useLazyQuery');
      blocks.push(
        `export function use${data}(${opt}: useQuery.Options<${data}, ${vars}>) {\n` +
          `  return useQuery(${doc}, options as useQuery.Options<${data}, ${vars}>);\n}\n` +
          `export function use${name}LazyQuery(options?: useLazyQuery.Options<${data}, ${vars}>) {\n` +
          `  return useLazyQuery(${doc}, options);\n}`,
      );
    } else if (op.operation === 'mutation') {
      used.add('useMutation');
      blocks.push(`export function use${data}(options?: useMutation.Options<${data}, ${vars}>) {\n` + `  return useMutation(${doc}, options);\n}`);
    } else {
      used.add('useSubscription');
      blocks.push(
        `export function use${data}(${opt}: useSubscription.Options<${data}, ${vars}>) {\n` +
          `  return useSubscription(${doc}, options as useSubscription.Options<${data}, ${vars}>);\n}`,
      );
    }
  }
  const imports = [...used].sort();
  return {
    prepend: imports.length ? [`import { ${imports.join(', ')} } from '@apollo/client/react';`] : [],
    content: blocks.length ? `\n${blocks.join('\n\n')}\n` : '',
  };
};

module.exports = { plugin };
