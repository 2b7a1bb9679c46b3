import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { FREE_STATUS, renderApp } from '../../test/render-app';
import { checkoutRedirect, subscriptionRoute } from './SubscriptionPage';
import { formatContextTokens } from './subscription-defaults';

const TIERS = [
  { __typename: 'Tier', id: 'free', name: 'Free', price: 0, monthlyCredits: 10, maxContextTokens: 2000, description: 'Try it.', features: ['Featured worlds'] },
  {
    __typename: 'Tier',
    id: 'hero',
    name: 'Hero',
    price: 9.99,
    monthlyCredits: 200,
    maxContextTokens: 16000,
    description: 'For regulars.',
    features: ['Longer memory'],
  },
];
const statusOn = (tierId: string, credits = 10) => ({
  ...FREE_STATUS,
  tier: { id: tierId, name: TIERS.find((t) => t.id === tierId)!.name },
  credits,
});

describe('subscription routing (SPEC §4)', () => {
  it('free or current tier → subscribe; another paid tier → checkout', () => {
    expect(subscriptionRoute({ id: 'free', price: 0 }, 'hero')).toBe('subscribe');
    expect(subscriptionRoute({ id: 'hero', price: 9.99 }, 'hero')).toBe('subscribe');
    expect(subscriptionRoute({ id: 'hero', price: 9.99 }, 'free')).toBe('checkout');
    expect(formatContextTokens(2000)).toBe('2k');
    expect(formatContextTokens(16000)).toBe('16k');
  });
});

describe('subscription page', () => {
  afterEach(() => jest.restoreAllMocks());

  it('tier cards with the current marker, USD per month and Nk context; paid tier → checkout view → Back / redirect', async () => {
    const go = jest.spyOn(checkoutRedirect, 'go').mockImplementation(() => undefined);
    const { calls } = await renderApp(
      '/subscription',
      {
        SubscriptionPage_tiers: () => ({ data: { tiers: TIERS } }),
        SubscriptionPage_createCheckout: () => ({ data: { createCheckout: { __typename: 'CheckoutSession', url: 'http://pay.example/checkout/1' } } }),
      },
      { signedIn: true },
    );
    expect(await screen.findByText('Current plan')).toBeTruthy();
    expect(screen.getByText('$9.99')).toBeTruthy();
    expect(screen.getByText('16k context tokens')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Choose Hero' }));
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Choose Hero' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Proceed to Payment' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://pay.example/checkout/1'));
    expect(calls.find((c) => c.operationName === 'SubscriptionPage_createCheckout')?.variables).toEqual({ tierId: 'hero' });
    expect(calls.some((c) => c.operationName === 'SubscriptionPage_subscribe')).toBe(false);
  });

  it('free tier subscribes directly; success toast; failures use the SPEC messages', async () => {
    const success = jest.spyOn(toast, 'success');
    const error = jest.spyOn(toast, 'error');
    let fail = false;
    let current = statusOn('hero');
    await renderApp(
      '/subscription',
      {
        SubscriptionStatus_subscriptionStatus: () => ({ data: { subscriptionStatus: current } }),
        SubscriptionPage_tiers: () => ({ data: { tiers: TIERS } }),
        SubscriptionPage_subscribe: () => {
          if (fail) return { networkError: true };
          current = statusOn('free');
          return { data: { subscribe: current } };
        },
        SubscriptionPage_createCheckout: () => ({ networkError: true }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Choose Free' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Subscription updated successfully!'));
    fail = true;
    fireEvent.click(await screen.findByRole('button', { name: 'Free: current plan' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to update subscription. Please try again.'));
    fireEvent.click(screen.getByRole('button', { name: 'Choose Hero' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Proceed to Payment' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to start checkout process. Please try again.'));
  });

  it("tiers that fail to load: 'Failed to load subscription information. Please try again.'", async () => {
    await renderApp('/subscription', { SubscriptionPage_tiers: () => ({ networkError: true }) }, { signedIn: true });
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load subscription information. Please try again.');
  });

  it("the window event 'refreshSubscription' reloads the status, and the live subscription updates the gem count", async () => {
    let credits = 10;
    const { calls, subscriptions } = await renderApp(
      '/worlds',
      { SubscriptionStatus_subscriptionStatus: () => ({ data: { subscriptionStatus: { ...FREE_STATUS, credits } } }) },
      { signedIn: true },
    );
    const gems = await screen.findByTestId('nav-credits');
    await waitFor(() => expect(gems.textContent).toBe('10'));
    credits = 25;
    const before = calls.filter((c) => c.operationName === 'SubscriptionStatus_subscriptionStatus').length;
    act(() => void window.dispatchEvent(new Event('refreshSubscription')));
    await waitFor(() => expect(calls.filter((c) => c.operationName === 'SubscriptionStatus_subscriptionStatus').length).toBe(before + 1));
    await waitFor(() => expect(gems.textContent).toBe('25'));

    const live = await subscriptions.channel('SubscriptionStatus_subscriptionChanged');
    act(() => live.emit({ subscriptionChanged: { ...FREE_STATUS, credits: 7 } }));
    await waitFor(() => expect(screen.getByTestId('nav-credits').textContent).toBe('7'));
  });
});
