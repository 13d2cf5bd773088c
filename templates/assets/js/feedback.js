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
 * A voice for a language ("de" matches "de-DE"), or null. Voices load
 * asynchronously in some browsers: see onVoicesChanged().
 * @param {string} lang
 * @returns {SpeechSynthesisVoice|null}
 */
export function voiceFor(lang) {
  const synth = globalThis.speechSynthesis;
  if (!synth || !lang) return null;
  const want = lang.toLowerCase();
  const voices = synth.getVoices();
  return (
    voices.find((v) => v.lang.toLowerCase() === want) ||
    voices.find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === want.split("-")[0]) ||
    null
  );
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
 * @returns {boolean} whether it started
 */
export function speak(text, lang) {
  const synth = globalThis.speechSynthesis;
  const voice = voiceFor(lang);
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
