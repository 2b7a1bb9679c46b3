import { fireEvent, screen, waitFor } from '@testing-library/react';
import { FREE_STATUS, renderApp } from '../../test/render-app';
import { MESSAGES } from '../../lib/messages';
import { acceptGeneratedDescription, cleanQuestions, validateWorld } from './world-form';

const credits = (n: number) => ({ SubscriptionStatus_subscriptionStatus: () => ({ data: { subscriptionStatus: { ...FREE_STATUS, credits: n } } }) });
const alertText = async () => (await screen.findByRole('alert')).textContent;
const description = () => screen.getByLabelText('World description') as HTMLTextAreaElement;
const arrow = () => screen.getByRole('button', { name: 'Continue to details' });

describe('new-world rules (SPEC §5)', () => {
  const ok = { name: 'Hollowmere', description: 'A fog-bound town.', questions: ['Who are you?'] };
  it('checks name, description, length and the first question, in that order', () => {
    expect(validateWorld(ok)).toBeNull();
    expect(validateWorld({ ...ok, name: ' ' })).toBe('Please enter a world name');
    expect(validateWorld({ ...ok, description: ' ' })).toBe('Please enter a world description');
    expect(validateWorld({ ...ok, description: 'x'.repeat(1200) })).toBeNull();
    expect(validateWorld({ ...ok, description: 'x'.repeat(1201) })).toBe('World description cannot exceed 1200 characters');
    expect(validateWorld({ ...ok, questions: ['  ', 'Second?'] })).toBe('Please enter at least one question');
  });
  it('drops blank questions', () => {
    expect(cleanQuestions(['A?', ' ', '', ' B? '])).toEqual(['A?', 'B?']);
  });
  it('an accepted generated description over 1200 is truncated to 1200 with the SPEC alert', () => {
    expect(acceptGeneratedDescription('x'.repeat(1200))).toEqual({ description: 'x'.repeat(1200), warning: null });
    const long = acceptGeneratedDescription('y'.repeat(1300));
    expect(long.description).toHaveLength(1200);
    expect(long.warning).toBe('Generated description exceeds the maximum of 1200 characters. Please edit it before accepting.');
  });
});

describe('create-world wizard', () => {
  it('fewer than 3 credits: the insufficient-credits view with Upgrade Subscription', async () => {
    const { router } = await renderApp('/worlds/new', credits(2), { signedIn: true });
    expect(await alertText()).toContain('You need at least 3 credits to create a new world.');
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade Subscription' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription'));
  });

  it('a failed credit check says so', async () => {
    await renderApp('/worlds/new', { SubscriptionStatus_subscriptionStatus: () => ({ networkError: true }) }, { signedIn: true });
    expect(await alertText()).toContain(MESSAGES.creditsCheckFailed);
  });

  it('description first; the arrow reveals the details; generated description accepted or cancelled', async () => {
    await renderApp(
      '/worlds/new',
      { ...credits(10), CreateWorldPage_generateWorldDescription: () => ({ data: { generateWorldDescription: 'z'.repeat(1250) } }) },
      { signedIn: true },
    );
    await screen.findByLabelText('World description');
    expect(screen.queryByLabelText('World name')).toBeNull();
    fireEvent.click(arrow());
    expect(await alertText()).toBe('Please enter a world description');

    fireEvent.click(screen.getByRole('button', { name: 'Generate Description' }));
    await screen.findByRole('region', { name: 'Generated description' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Generated description' })).toBeNull();
    expect(description().value).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Generate Description' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await alertText()).toBe(MESSAGES.generatedDescriptionTooLong);
    expect(description().value).toHaveLength(1200);

    fireEvent.change(description(), { target: { value: 'w'.repeat(1201) } });
    fireEvent.click(arrow());
    expect(await alertText()).toBe('World description cannot exceed 1200 characters');
    fireEvent.change(description(), { target: { value: 'A drowned empire.' } });
    fireEvent.click(arrow());
    expect(await screen.findByLabelText('World name')).toBeTruthy();
  });

  it('image: not generated → generated → regenerated; questions generated; submit → /worlds without blank questions', async () => {
    let images = 0;
    const { router, calls } = await renderApp(
      '/worlds/new',
      {
        ...credits(3),
        CreateWorldPage_generateWorldImage: () => ({ data: { generateWorldImage: `data:image/jpeg;base64,${++images}` } }),
        CreateWorldPage_generateWorldQuestions: () => ({ data: { generateWorldQuestions: ['Who raised you?', ' ', 'What do you carry?'] } }),
        CreateWorldPage_submitWorld: () => ({
          data: {
            submitWorld: {
              __typename: 'World',
              id: 'new-1',
              name: 'Deep',
              description: 'A drowned empire.',
              questions: [],
              imageUrl: null,
              genre: null,
              author: 'aria',
              isOwn: true,
              sharedGlobally: false,
            },
          },
        }),
        WorldsPage_myWorlds: () => ({ data: { myWorlds: [] } }),
      },
      { signedIn: true },
    );
    fireEvent.change(await screen.findByLabelText('World description'), { target: { value: 'A drowned empire.' } });
    fireEvent.click(arrow());
    expect(screen.getByRole('img', { name: 'No image yet' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    const img = (await screen.findByRole('img', { name: /Generated artwork/ })) as HTMLImageElement;
    expect(img.src).toBe('data:image/jpeg;base64,1');
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate Image' }));
    await waitFor(() => expect((screen.getByRole('img', { name: /Generated artwork/ }) as HTMLImageElement).src).toBe('data:image/jpeg;base64,2'));

    fireEvent.click(screen.getByRole('button', { name: 'Create World (3 gems)' }));
    expect(await alertText()).toBe('Please enter a world name');
    fireEvent.change(screen.getByLabelText('World name'), { target: { value: 'Deep' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create World (3 gems)' }));
    expect(await alertText()).toBe('Please enter at least one question');

    fireEvent.click(screen.getByRole('button', { name: 'Generate Questions' }));
    await waitFor(() => expect((screen.getByLabelText('Question 1') as HTMLInputElement).value).toBe('Who raised you?'));
    fireEvent.click(screen.getByRole('button', { name: 'Add Question' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create World (3 gems)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
    expect(calls.find((c) => c.operationName === 'CreateWorldPage_submitWorld')?.variables).toEqual({
      input: { name: 'Deep', description: 'A drowned empire.', questions: ['Who raised you?', 'What do you carry?'], image: 'data:image/jpeg;base64,2' },
    });
  });

  it('image generation without a description alerts; failures use the SPEC messages', async () => {
    await renderApp(
      '/worlds/new',
      { ...credits(10), CreateWorldPage_generateWorldImage: () => ({ networkError: true }), CreateWorldPage_submitWorld: () => ({ networkError: true }) },
      { signedIn: true },
    );
    fireEvent.change(await screen.findByLabelText('World description'), { target: { value: 'A drowned empire.' } });
    fireEvent.click(arrow());
    fireEvent.change(description(), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    expect(await alertText()).toBe('Please enter a world description first');
    fireEvent.change(description(), { target: { value: 'A drowned empire.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Image' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Failed to generate image. Please try again.'));
    fireEvent.change(screen.getByLabelText('World name'), { target: { value: 'Deep' } });
    fireEvent.change(screen.getByLabelText('Question 1'), { target: { value: 'Who?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create World (3 gems)' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Failed to create world. Please try again.'));
  });
});
