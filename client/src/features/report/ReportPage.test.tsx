import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../../test/render-app';

describe('/report/story/:id (issue 20)', () => {
  it('a signed-in reader reports a published story and is thanked, with the way back to it', async () => {
    const { calls } = await renderApp(
      '/report/story/p-9',
      { ReportForm_reportContent: () => ({ data: { reportContent: { __typename: 'ReportResultType', hidden: false } } }) },
      { signedIn: true },
    );
    await screen.findByRole('heading', { name: 'Report a published story' });
    fireEvent.change(screen.getByLabelText('Why are you reporting it?'), { target: { value: 'harassment' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/Thank you/));
    expect(screen.getByRole('link', { name: 'Back to the story' }).getAttribute('href')).toBe('/read/p-9');
    expect(calls.find((c) => c.operationName === 'ReportForm_reportContent')?.variables).toEqual({
      input: { targetKind: 'story', targetId: 'p-9', reason: 'harassment', note: null },
    });
  });

  it('an anonymous reader signs in first', async () => {
    const { router } = await renderApp('/report/story/p-9');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });
});
