import { useEffect, useState } from 'react';

/** The browser's speech engine, or null where there is none (some browsers, jsdom without a stub). */
export function browserSpeech(): SpeechSynthesis | null {
  return typeof window !== 'undefined' && 'speechSynthesis' in window && typeof SpeechSynthesisUtterance !== 'undefined' ? window.speechSynthesis : null;
}

/**
 * Sentence-sized pieces of at most `max` characters (a long sentence is cut after a word): Chrome
 * stops an utterance after about 15 seconds, and short utterances also make Stop and Pause immediate.
 */
export function speechPieces(text: string, max = 220): string[] {
  const sentences =
    text
      .replace(/\s+/g, ' ')
      .trim()
      .match(/[^.!?…]+(?:[.!?…]+["'”’)\]]*|$)/g) ?? [];
  const out: string[] = [];
  for (const raw of sentences) {
    let s = raw.trim();
    while (s.length > max) {
      const cut = s.lastIndexOf(' ', max);
      const at = cut > 0 ? cut : max;
      out.push(s.slice(0, at).trim());
      s = s.slice(at).trim();
    }
    if (s) out.push(s);
  }
  return out;
}

/**
 * The browser's voices. Chrome lists none until it has loaded them and then fires `voiceschanged`;
 * Firefox and Safari list them at once. An empty list means the browser's default voice.
 */
export function useBrowserVoices(): SpeechSynthesisVoice[] {
  const [voices, setVoices] = useState<SpeechSynthesisVoice[]>(() => browserSpeech()?.getVoices() ?? []);
  useEffect(() => {
    const synth = browserSpeech();
    if (!synth) return;
    const update = () => setVoices(synth.getVoices());
    update();
    synth.addEventListener('voiceschanged', update);
    return () => synth.removeEventListener('voiceschanged', update);
  }, []);
  return voices;
}
