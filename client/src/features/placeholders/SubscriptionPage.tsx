import { GemIcon } from '../../components/icons';
import { DEFAULT_SUBSCRIPTION, formatContextTokens } from '../subscription/subscription-defaults';
import { PlaceholderPage } from './PlaceholderPage';

export default function SubscriptionPage() {
  const s = DEFAULT_SUBSCRIPTION;
  return (
    <PlaceholderPage title="Subscription" lead="Credits power world creation, characters and stories.">
      <p className="placeholder-status">
        Current tier: <strong>{s.tierName}</strong> · <GemIcon /> {s.credits} credits · {formatContextTokens(s.maxContextTokens)}{' '}
        context
      </p>
    </PlaceholderPage>
  );
}
