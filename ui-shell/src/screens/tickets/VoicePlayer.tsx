import { ActionIcon, Group, Text, UnstyledButton } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@atende/ui-shell/sdk';
import classes from './tickets.module.css';

const BARS = 42;
const SPEEDS = [1, 1.5, 2] as const;

/** Peaks of each audio file, computed once per page (the list is virtualised: bubbles come and go). */
const peaksCache = new Map<string, Promise<number[] | null>>();

/** The loudness of `BARS` slices of the recording, 0..1, from its decoded samples. */
function peaksOf(url: string): Promise<number[] | null> {
  let p = peaksCache.get(url);
  if (!p) {
    p = (async () => {
      try {
        const data = await (await fetch(url)).arrayBuffer();
        const Ctx = window.OfflineAudioContext ?? (window as unknown as { webkitOfflineAudioContext?: typeof OfflineAudioContext }).webkitOfflineAudioContext;
        if (!Ctx) return null;
        // The sample rate only matters for decoding; one channel is enough to draw.
        const audio = await new Ctx(1, 1, 22_050).decodeAudioData(data);
        const samples = audio.getChannelData(0);
        const size = Math.max(1, Math.floor(samples.length / BARS));
        const out: number[] = [];
        for (let b = 0; b < BARS; b++) {
          let sum = 0;
          for (let i = b * size; i < Math.min(samples.length, (b + 1) * size); i++) sum += samples[i]! * samples[i]!;
          out.push(Math.sqrt(sum / size));
        }
        const max = Math.max(...out, 1e-6);
        return out.map((v) => Math.max(0.08, v / max));
      } catch {
        return null;
      }
    })();
    peaksCache.set(url, p);
  }
  return p;
}

/** A flat, gently varied line while the real one is computed (or when the file cannot be decoded). */
const PLACEHOLDER = Array.from({ length: BARS }, (_, i) => 0.25 + 0.15 * Math.abs(Math.sin(i * 1.7)));

const clock = (s: number) => (Number.isFinite(s) ? `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}` : '0:00');

/**
 * A voice note as WhatsApp plays it: play/pause, the recording's waveform
 * (played part coloured, click or arrow keys to seek), the time, and the
 * speed (1×, 1.5×, 2×).
 */
export function VoicePlayer({ src, mine }: { src: string; mine: boolean }) {
  const { t, i18n } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const [peaks, setPeaks] = useState<number[] | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);

  useEffect(() => {
    let live = true;
    void peaksOf(src).then((p) => live && setPeaks(p));
    return () => {
      live = false;
    };
  }, [src]);
  useEffect(() => {
    const a = audio.current;
    if (!a) return;
    // The default rate too: loading the file resets the rate to it.
    a.defaultPlaybackRate = speed;
    a.playbackRate = speed;
  }, [speed]);

  const toggle = () => {
    const a = audio.current;
    if (!a) return;
    if (a.paused) void a.play().catch(() => undefined);
    else a.pause();
  };
  const seekTo = (fraction: number) => {
    const a = audio.current;
    if (!a || !Number.isFinite(a.duration)) return;
    a.currentTime = Math.min(a.duration, Math.max(0, fraction * a.duration));
    setTime(a.currentTime);
  };
  const onPointer = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    seekTo((e.clientX - box.left) / box.width);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = duration ? 5 / duration : 0;
    if (e.key === 'ArrowRight') seekTo(time / (duration || 1) + step);
    else if (e.key === 'ArrowLeft') seekTo(time / (duration || 1) - step);
    else return;
    e.preventDefault();
  };
  const played = duration ? time / duration : 0;
  const rate = `${formatNumber(speed, i18n.language)}×`;

  return (
    <Group gap={8} wrap="nowrap" className={classes.voice} data-mine={mine || undefined} data-testid="voice-note">
      <ActionIcon variant="subtle" color="gray" size="lg" radius="xl" onClick={toggle} aria-label={playing ? t('media.pause') : t('media.play')} data-testid="voice-play">
        {playing ? <IconPlayerPauseFilled size={20} /> : <IconPlayerPlayFilled size={20} />}
      </ActionIcon>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div
          className={classes.wave}
          role="slider"
          tabIndex={0}
          aria-label={t('media.seek')}
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(time)}
          aria-valuetext={`${clock(time)} / ${clock(duration)}`}
          onPointerDown={onPointer}
          onKeyDown={onKey}
          data-testid="voice-wave"
          data-ready={peaks ? '' : undefined}
        >
          {(peaks ?? PLACEHOLDER).map((h, i) => (
            <span key={i} style={{ height: `${Math.round(h * 100)}%` }} data-played={(i + 0.5) / BARS <= played || undefined} />
          ))}
        </div>
        <Text size="11px" c="var(--tk-14)" mt={2} data-testid="voice-time">{clock(playing || time ? time : duration)}</Text>
      </div>
      <UnstyledButton className={classes.speed} onClick={() => setSpeed((s) => SPEEDS[(SPEEDS.indexOf(s) + 1) % SPEEDS.length]!)} aria-label={t('media.speed', { rate })} data-testid="voice-speed">
        {rate}
      </UnstyledButton>
      <audio
        ref={audio}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          setTime(0);
        }}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
        onLoadedMetadata={(e) => {
          // Recorded WebM files report an infinite duration until seeked to the end.
          const a = e.currentTarget;
          if (Number.isFinite(a.duration)) setDuration(a.duration);
          else {
            const fix = () => {
              a.removeEventListener('timeupdate', fix);
              setDuration(a.duration);
              a.currentTime = 0;
            };
            a.addEventListener('timeupdate', fix);
            a.currentTime = 1e7;
          }
        }}
      />
    </Group>
  );
}
