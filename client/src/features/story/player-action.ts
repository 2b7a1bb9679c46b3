import { useCallback } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorHint, withHint } from '../../apollo/graphql-errors';

/**
 * The story page's one error policy: a player action that fails is shown to the player (a toast with
 * the action's message) — never only written to the console. Resolves true when the action worked.
 */
export function usePlayerAction() {
  return useCallback(async (failMessage: string, action: () => Promise<unknown>): Promise<boolean> => {
    try {
      await action();
      return true;
    } catch (e) {
      console.error(failMessage, e);
      toast.error(withHint(failMessage, errorHint(e)));
      return false;
    }
  }, []);
}
