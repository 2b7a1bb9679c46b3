import { useApolloClient } from '@apollo/client/react';
import { StoryExport_exportDocument } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { saveFile } from '../../lib/save-file';
import { usePlayerAction } from './player-action';

/** Export Markdown / Export HTML: the story as one file. */
export function StoryExport({ characterId, disabled }: { characterId: string; disabled: boolean }) {
  const client = useApolloClient();
  const run = usePlayerAction();
  const onExport = (format: 'md' | 'html') =>
    run(MESSAGES.exportFailed, async () => {
      const { data } = await client.query({ query: StoryExport_exportDocument, variables: { characterId, format }, fetchPolicy: 'network-only' });
      if (!data) throw new Error('export returned no file');
      saveFile(data.exportStory.filename, new Blob([data.exportStory.content], { type: data.exportStory.mimeType }));
    });
  return (
    <>
      <button type="button" className="story-button story-button-ghost" onClick={() => void onExport('md')} disabled={disabled}>
        Export Markdown
      </button>
      <button type="button" className="story-button story-button-ghost" onClick={() => void onExport('html')} disabled={disabled}>
        Export HTML
      </button>
    </>
  );
}
