/**
 * Voice effect presets (spec 000 §9, 001 §4 Voice recorder; issue 14 §4): the recorder's list
 * (natural, chorus, delay, reverb, pitch_up, pitch_down, robot, speedup, slowdown, bass_boost) and
 * the spec's second list (chipmunk, darth, radio, whisper, deep, shallow, nightcore). Each is an
 * ffmpeg audio filter chain made only of filters every ffmpeg build has (no librubberband, no
 * LADSPA): pitch moves with `asetrate` + `aresample` and the length is put back with `atempo`.
 * `afftfilt` keeps its default window: its `win_size` is a power of two in ffmpeg 4 and a number of
 * samples in ffmpeg 5+, so no value works on both.
 * Browser-safe: the dashboard lists the same ids.
 */

/** Preset ids, in the recorder's order. */
export const PRESETS = [
  'natural',
  'chorus',
  'delay',
  'reverb',
  'pitch_up',
  'pitch_down',
  'robot',
  'speedup',
  'slowdown',
  'bass_boost',
  'chipmunk',
  'darth',
  'radio',
  'whisper',
  'deep',
  'shallow',
  'nightcore',
] as const;
export type Preset = (typeof PRESETS)[number];

/** Sample rate every chain works at and the output has (a Telegram voice note: Opus, 48 kHz mono). */
export const SAMPLE_RATE = 48_000;

/** Moves the pitch by `factor` and keeps the length (`asetrate` changes both; `atempo` undoes the speed). */
function pitch(factor: number): string {
  return `asetrate=${SAMPLE_RATE}*${factor},aresample=${SAMPLE_RATE},atempo=${(1 / factor).toFixed(4)}`;
}

/** The filter chain of each preset (after the input is resampled to 48 kHz). */
export const FILTERS: Record<Preset, string> = {
  natural: 'anull',
  chorus: 'chorus=0.5:0.9:50|60|40:0.4|0.32|0.3:0.25|0.4|0.3:2|2.3|1.3',
  delay: 'aecho=0.8:0.9:500:0.3',
  reverb: 'aecho=0.8:0.88:60|120|180:0.4|0.3|0.2',
  pitch_up: pitch(1.25),
  pitch_down: pitch(0.8),
  robot: "afftfilt=real='hypot(re,im)*sin(0)':imag='hypot(re,im)*cos(0)':overlap=0.75",
  speedup: 'atempo=1.5',
  slowdown: 'atempo=0.75',
  bass_boost: 'bass=g=12:f=110:w=0.6',
  chipmunk: pitch(1.6),
  darth: `${pitch(0.7)},aecho=0.8:0.88:40:0.3,bass=g=6`,
  radio: 'highpass=f=300,lowpass=f=3400,acompressor=threshold=0.1:ratio=6,volume=1.5',
  whisper:
    "highpass=f=600,afftfilt=real='hypot(re,im)*cos(2*PI*random(0))':imag='hypot(re,im)*sin(2*PI*random(1))':overlap=0.75,volume=0.8",
  deep: pitch(0.85),
  shallow: pitch(1.15),
  nightcore: `asetrate=${SAMPLE_RATE}*1.25,aresample=${SAMPLE_RATE}`,
};
