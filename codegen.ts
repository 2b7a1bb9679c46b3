import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents + named hooks for the React client (STACK.md §8).
 *
 * typescript-react-apollo does not compile against Apollo Client 4, so hooks come from a small local
 * plugin (client/codegen/typed-hooks.cjs) that wraps `@apollo/client/react`. typescript-operations 6
 * emits the input types/enums it needs, so the `typescript` plugin is deliberately absent.
 * No prettier step: the output is deterministic on its own, so `npm run codegen && git diff --exit-code`
 * is a valid staleness check.
 */
const config: CodegenConfig = {
  overwrite: true,
  schema: 'schema.graphql',
  documents: ['client/src/**/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'client/src/gql/graphql.ts': {
      plugins: ['./client/codegen/banner.cjs', 'typescript-operations', 'typed-document-node', './client/codegen/typed-hooks.cjs'],
      config: {
        // Keep operation names as written (`AuthPage_signIn` → `AuthPage_signInMutation`,
        // `AuthPage_signInDocument`, `useAuthPage_signInMutation`).
        namingConvention: 'keep',
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        nonOptionalTypename: false,
        skipTypename: true,
        scalars: { DateTimeISO: 'string', ID: 'string', JSONObject: 'Record<string, unknown>' },
        strictScalars: true,
      },
    },
  },
};

export default config;
