// Optional sensory feedback: a short beep (Web Audio), a vibration, and
// reading a description aloud (Web Speech). Every browser API here may be
// missing or blocked; each helper then quietly does nothing.

let audioContext = null;

/**
 * A short tone: one high note for right, two low ones for wrong. Created
 * lazily inside a click or key handler, where browsers allow audio.
 * @param {boolean} correct
 */
export function beep(correct) {
  const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Ctx) return;
  try {
    audioContext ??= new Ctx();
    const start = audioContext.currentTime;
    const notes = correct ? [[880, 0]] : [[220, 0], [196, 0.16]];
    for (const [freq, offset] of notes) {
      const osc = audioContext.createOscillator();
      const gain = audioContext.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.14);
      osc.connect(gain).connect(audioContext.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.15);
    }
  } catch {
    // Audio blocked or unavailable: feedback is optional.
  }
}

/**
 * A short buzz for right, a double one for wrong (phones only).
 * @param {boolean} correct
 */
export function vibrate(correct) {
  if (typeof navigator !== "undefined" && typeof navigator.vibrate === "function") {
    try {
      navigator.vibrate(correct ? 40 : [70, 50, 70]);
    } catch {
      // Not allowed here.
    }
  }
}

/** Whether the device can vibrate at all (to hide the setting where it cannot). */
export function canVibrate() {
  return typeof navigator !== "undefined" && typeof navigator.vibrate === "function";
}

/**
 * A voice for a language ("de" matches "de-DE"), or null: the learner's
 * chosen voice (by voiceURI) when it speaks that language, else an exact
 * match, else any voice of the language. Voices load asynchronously in some
 * browsers: see onVoicesChanged().
 * @param {string} lang
 * @param {string|null} [preferred] a voiceURI from the settings
 * @returns {SpeechSynthesisVoice|null}
 */
export function voiceFor(lang, preferred = null) {
  const synth = globalThis.speechSynthesis;
  if (!synth || !lang) return null;
  const want = lang.toLowerCase();
  const base = (code) => code.toLowerCase().split(/[-_]/)[0];
  const voices = synth.getVoices().filter((v) => base(v.lang) === base(want));
  return (
    (preferred && voices.find((v) => v.voiceURI === preferred)) ||
    voices.find((v) => v.lang.toLowerCase().replace("_", "-") === want) ||
    voices.find((v) => v.default) ||
    voices[0] ||
    null
  );
}

/**
 * Every voice for a language, for the settings page's list.
 * @param {string} lang
 * @returns {SpeechSynthesisVoice[]}
 */
export function voicesFor(lang) {
  const synth = globalThis.speechSynthesis;
  if (!synth || !lang) return [];
  const base = (code) => code.toLowerCase().split(/[-_]/)[0];
  return synth.getVoices().filter((v) => base(v.lang) === base(lang));
}

/**
 * Calls `fn` when the list of voices changes.
 * @param {() => void} fn
 */
export function onVoicesChanged(fn) {
  const synth = globalThis.speechSynthesis;
  if (synth && typeof synth.addEventListener === "function") synth.addEventListener("voiceschanged", fn);
}

/**
 * Reads a text aloud in a language, interrupting anything still being read.
 * @param {string} text
 * @param {string} lang
 * @param {string|null} [preferred] the learner's voice for that language (voiceURI)
 * @returns {boolean} whether it started
 */
export function speak(text, lang, preferred = null) {
  const synth = globalThis.speechSynthesis;
  const voice = voiceFor(lang, preferred);
  if (!synth || !voice || typeof SpeechSynthesisUtterance !== "function") return false;
  synth.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = voice.lang;
  utterance.voice = voice;
  synth.speak(utterance);
  return true;
}

/** Stops reading aloud (when the learner moves on). */
export function stopSpeaking() {
  globalThis.speechSynthesis?.cancel();
}
