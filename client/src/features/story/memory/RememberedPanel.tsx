import { useId } from 'react';
import { useRememberedPanelQuery, type RememberedPanelQuery } from '../../../gql/graphql';
import { MESSAGES } from '../../../lib/messages';
import './memory.css';

type Remembered = NonNullable<NonNullable<RememberedPanelQuery['character']>['remembered']>;

const n = (x: number) => x.toLocaleString('en-US');

/**
 * What the storyteller remembered (issue 30; AI Dungeon's context viewer, NovelAI's context bar): the
 * latest chapter's prompt, part by part as it was sent, how much of the tier's context each took, and
 * what was left out and why. `chapterId` is the latest chapter's selected take.
 */
export function RememberedPanel({ characterId, chapterId }: { characterId: string; chapterId: string | null }) {
  // Asked by the chapter's id: a new chapter (or another take of it) has a report of its own.
  const { data, loading, error } = useRememberedPanelQuery({ variables: { characterId, chapterId }, skip: !chapterId });
  const r = data?.character?.remembered ?? null;
  if (!chapterId) return <p className="memory-help">Once the first chapter is written, what the storyteller was sent for it shows here.</p>;
  if (error && !data) return <p role="alert">{MESSAGES.rememberedLoadFailed}</p>;
  if (loading && !r) return <p className="memory-help">Loading…</p>;
  if (!r) return <p className="memory-help">This chapter keeps no record of what its storyteller was sent (only the latest three chapters do).</p>;
  return <RememberedView r={r} />;
}

function RememberedView({ r }: { r: Remembered }) {
  const ids = useId();
  const room = r.maxContextTokens - r.reservedTokens;
  const used = r.sections.reduce((sum, s) => sum + s.tokens, 0);
  return (
    <section className="remembered" data-testid="remembered" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>What the storyteller remembered</h3>
      <p className="memory-help">
        For chapter {r.chapterIndex + 1}
        {r.take > 1 ? ` (take ${r.take})` : ''}:{' '}
        {r.provider === 'offline' ? (
          // The offline storyteller reads all the engine chose (givenReport): "2,248 of 2,000 tokens"
          // beside "Nothing left out" read as a contradiction in the 20-chapter screenshots.
          <>
            {n(r.promptTokens)} tokens, all read by the offline storyteller (it has no context limit; a model on your tier reads up to {n(room)}).
          </>
        ) : (
          <>
            {n(r.promptTokens)} of {n(room)} tokens the {r.model} could read
            {r.reservedTokens > 0 ? ` (${n(r.reservedTokens)} more kept for its answer)` : ''}.
          </>
        )}
      </p>
      {/* The context bar: one segment per part, as wide as its share of the room. */}
      <div className="context-bar" aria-hidden="true">
        {r.sections.map((s) => (
          <span
            key={s.key}
            className={`context-part context-${s.key}`}
            style={{ flexGrow: Math.max(s.tokens, 1) }}
            title={`${s.title}: ${n(s.tokens)} tokens`}
          />
        ))}
        {room > used && <span className="context-part context-free" style={{ flexGrow: room - used }} title="Unused" />}
      </div>
      <ul className="remembered-sections">
        {r.sections.map((s) => (
          <li key={s.key}>
            <details>
              <summary>
                <span className={`context-swatch context-${s.key}`} aria-hidden="true" />
                <span className="remembered-title">{s.title}</span> <span className="remembered-tokens">{n(s.tokens)} tokens</span>
              </summary>
              <pre className="remembered-text">{s.text}</pre>
            </details>
          </li>
        ))}
      </ul>
      <h4>Left out</h4>
      {r.omitted.length === 0 ? (
        <p className="memory-help">Nothing: the whole story fit.</p>
      ) : (
        <ul className="remembered-omitted">
          {r.omitted.map((o, i) => (
            <li key={`${o.section}-${i}`}>
              <strong>{o.what}</strong> ({n(o.tokens)} tokens): {o.reason}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
