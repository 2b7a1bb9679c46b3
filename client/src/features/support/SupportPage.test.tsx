import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { renderApp } from '../../test/render-app';

describe('support (SPEC §4, §5, §8)', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('a blank message is refused', async () => {
    await renderApp('/support', {}, { signedIn: true });
    fireEvent.change(await screen.findByLabelText('Message'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter a message before submitting.');
  });

  it("'Submitted!' shows for 3 s, then the form resets; the type comes from the footer link", async () => {
    const success = jest.spyOn(toast, 'success');
    const { calls } = await renderApp(
      '/support?type=bug',
      { SupportPage_submitSupportMessage: () => ({ data: { submitSupportMessage: true } }) },
      { signedIn: true },
    );
    const message = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    expect((screen.getByRole('radio', { name: /Bug/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(message, { target: { value: 'The map is upside down.' } });
    // The page's clock from here on is the test's: on a busy machine real time between two steps can
    // exceed the 3 s being judged (CI at load 20 found 'Submitted!' already gone at "2.8 s").
    // findByText advances it 50 ms at a time while it waits.
    jest.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByText('Submitted!');
    expect(success).toHaveBeenCalledWith('Your bug has been submitted successfully!');
    expect(calls.find((c) => c.operationName === 'SupportPage_submitSupportMessage')?.variables).toEqual({ type: 'bug', message: 'The map is upside down.' });

    // Still there just before 3 s, gone right after.
    act(() => jest.advanceTimersByTime(2800));
    expect(screen.getByText('Submitted!')).toBeTruthy();
    act(() => jest.advanceTimersByTime(300));
    expect(screen.queryByText('Submitted!')).toBeNull();
    expect(message.value).toBe('');
  });

  it('a failed submit says so and keeps the message', async () => {
    const error = jest.spyOn(toast, 'error');
    await renderApp('/support', { SupportPage_submitSupportMessage: () => ({ networkError: true }) }, { signedIn: true });
    const message = (await screen.findByLabelText('Message')) as HTMLTextAreaElement;
    fireEvent.change(message, { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to submit your message. Please try again.'));
    expect(message.value).toBe('Hello');
  });
});
