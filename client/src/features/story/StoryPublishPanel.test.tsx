import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { gqlError } from '../../test/fake-graphql-server';
import { chapter, storyCharacter } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { MESSAGES } from '../../lib/messages';

const chapters = [chapter(0), chapter(1), chapter(2)];

describe('publishing a story (issue 20)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('publishes, shows the link with what readers see, updates to the latest chapters and unpublishes after a confirmation', async () => {
    const success = jest.spyOn(toast, 'success');
    let published: null | { id: string; chapterCount: number } = null;
    const { calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters, publication: published }) } }),
        StoryPublishPanel_publish: () => {
          published = { id: 'p-1', chapterCount: published ? 3 : 2 };
          return { data: { publishStory: storyCharacter({ publication: published }).publication } };
        },
        StoryPublishPanel_unpublish: () => {
          published = null;
          return { data: { unpublishStory: true } };
        },
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('tab', { name: /^Publish/ }));
    const panel = await screen.findByTestId('story-publish');
    expect(within(panel).getByText(/nothing else about you/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Publish story' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.storyPublished));
    const link = await within(panel).findByRole('textbox', { name: 'Link' });
    expect((link as HTMLInputElement).value).toBe(`${window.location.origin}/read/p-1`);
    expect(within(panel).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/read/p-1');
    expect(within(panel).getByText('Readers see 2 chapters; the story now has 3.')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Update to latest' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.storyPublishUpdated));
    expect(await within(panel).findByText('Readers see 3 chapters.')).toBeTruthy();

    const confirm = jest.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    fireEvent.click(within(panel).getByRole('button', { name: 'Unpublish' }));
    expect(calls.some((c) => c.operationName === 'StoryPublishPanel_unpublish')).toBe(false);
    fireEvent.click(within(panel).getByRole('button', { name: 'Unpublish' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.storyUnpublished));
    expect(confirm).toHaveBeenCalledWith(MESSAGES.storyUnpublishConfirm);
    expect(await within(panel).findByRole('button', { name: 'Publish story' })).toBeTruthy();
  });

  it('a story moderation refuses says so', async () => {
    const error = jest.spyOn(toast, 'error');
    await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters }) } }),
        StoryPublishPanel_publish: () => gqlError('CONTENT_REJECTED', 'no'),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('tab', { name: /^Publish/ }));
    fireEvent.click(within(await screen.findByTestId('story-publish')).getByRole('button', { name: 'Publish story' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(MESSAGES.storyPublishRejected));
  });
});

it('a story without chapters cannot be published yet', async () => {
  await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [] }) } }) }, { signedIn: true });
  fireEvent.click(await screen.findByRole('tab', { name: /^Publish/ }));
  const button = within(await screen.findByTestId('story-publish')).getByRole('button', { name: 'Publish story' });
  expect((button as HTMLButtonElement).disabled).toBe(true);
});
