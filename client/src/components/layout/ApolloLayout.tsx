import { ApolloBoundary } from '../../apollo/apollo-boundary';
import { AppLayout } from './AppLayout';

/**
 * Every page but the landing page: Apollo provider + navigation + footer. Loaded as its own chunk so
 * the landing page's initial JavaScript holds neither Apollo nor the app chrome.
 */
export default function ApolloLayout() {
  return (
    <ApolloBoundary>
      <AppLayout />
    </ApolloBoundary>
  );
}
