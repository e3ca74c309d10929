/**
 * The alert sounds, synthesised here as small WAV files on first use (no audio
 * assets to ship or license): soft bell-like tones, a sine with a quick attack,
 * an exponential decay and a little of its octave.
 */

/** What the sound announces. */
export type SoundKind = 'ticket' | 'message' | 'internal';

/** [frequency Hz, start s, length s] of each note. */
const NOTES: Record<SoundKind, Array<[number, number, number]>> = {
  // A customer is waiting: two notes going up, like a door chime.
  ticket: [[659.25, 0, 0.45], [987.77, 0.16, 0.6]],
  // A message in a conversation: one short, higher "pop".
  message: [[880, 0, 0.18], [1318.5, 0.06, 0.28]],
  // A colleague wrote: lower and rounder, so it is told apart without looking.
  internal: [[523.25, 0, 0.3], [783.99, 0.11, 0.4]],
};

const RATE = 22_050;

function wav(samples: Int16Array): Blob {
  const header = new DataView(new ArrayBuffer(44));
  const text = (at: number, s: string) => [...s].forEach((c, i) => header.setUint8(at + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  header.setUint32(4, 36 + samples.byteLength, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  header.setUint32(16, 16, true);
  header.setUint16(20, 1, true); // PCM
  header.setUint16(22, 1, true); // mono
  header.setUint32(24, RATE, true);
  header.setUint32(28, RATE * 2, true);
  header.setUint16(32, 2, true);
  header.setUint16(34, 16, true);
  text(36, 'data');
  header.setUint32(40, samples.byteLength, true);
  return new Blob([header.buffer, samples.buffer as ArrayBuffer], { type: 'audio/wav' });
}

/** The PCM samples of a sound (exported for its unit test). */
export function synthesize(kind: SoundKind): Int16Array {
  const notes = NOTES[kind];
  const length = Math.max(...notes.map(([, start, len]) => start + len));
  const out = new Float32Array(Math.ceil(length * RATE));
  for (const [freq, start, len] of notes) {
    const from = Math.floor(start * RATE);
    const count = Math.floor(len * RATE);
    for (let i = 0; i < count && from + i < out.length; i++) {
      const t = i / RATE;
      const envelope = Math.min(1, t / 0.006) * Math.exp(-t * (5.5 / len));
      out[from + i]! += envelope * (0.78 * Math.sin(2 * Math.PI * freq * t) + 0.22 * Math.sin(4 * Math.PI * freq * t));
    }
  }
  const peak = Math.max(1, ...out.map(Math.abs));
  // 0.5 of full scale: a notice, not an alarm.
  return Int16Array.from(out, (v) => Math.round((v / peak) * 0.5 * 32_767));
}

const urls = new Map<SoundKind, string>();

/** An object URL of the sound's WAV, made once per page. */
export function soundUrl(kind: SoundKind): string {
  let url = urls.get(kind);
  if (!url) urls.set(kind, (url = URL.createObjectURL(wav(synthesize(kind)))));
  return url;
}
