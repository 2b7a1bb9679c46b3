import { useApolloClient } from '@apollo/client/react';
import { StoryExport_exportDocument } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { usePlayerAction } from './player-action';

/** Downloads a text file (the story export) without another round trip of the browser. */
function download(filename: string, mimeType: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Export Markdown / Export HTML: the story as one file. */
export function StoryExport({ characterId, disabled }: { characterId: string; disabled: boolean }) {
  const client = useApolloClient();
  const run = usePlayerAction();
  const onExport = (format: 'md' | 'html') =>
    run(MESSAGES.exportFailed, async () => {
      const { data } = await client.query({ query: StoryExport_exportDocument, variables: { characterId, format }, fetchPolicy: 'network-only' });
      if (!data) throw new Error('export returned no file');
      download(data.exportStory.filename, data.exportStory.mimeType, data.exportStory.content);
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
