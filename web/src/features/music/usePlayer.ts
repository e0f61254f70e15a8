import { useCallback, useEffect, useRef, useState } from 'react'
import { AUTOPLAY_DELAY_MS, DEFAULT_VOLUME, TRACKS, wrapTrack } from './tracks'

/** Drives one <audio> element through the track list. */
export function usePlayer() {
  const audioRef = useRef<HTMLAudioElement | null>(null)
  const [index, setIndex] = useState(0)
  const [playing, setPlaying] = useState(false)
  const [volume, setVolume] = useState(DEFAULT_VOLUME)
  const wasPlaying = useRef(false)

  const play = useCallback(() => {
    const audio = audioRef.current
    if (!audio) return
    audio.play().then(
      () => setPlaying(true),
      // Blocked autoplay or a failed load: stay paused until the user clicks.
      (err: unknown) => {
        setPlaying(false)
        console.warn('Music playback failed', err)
      },
    )
  }, [])

  const pause = useCallback(() => {
    audioRef.current?.pause()
    setPlaying(false)
  }, [])

  const change = useCallback((delta: number) => {
    wasPlaying.current = !(audioRef.current?.paused ?? true)
    setIndex((i) => wrapTrack(i + delta))
  }, [])

  // On a track change, load the new source and resume if it was playing.
  useEffect(() => {
    const audio = audioRef.current
    if (!audio) return
    if (audio.getAttribute('src') !== TRACKS[index].src) {
      audio.src = TRACKS[index].src
      if (wasPlaying.current) play()
    }
  }, [index, play])

  useEffect(() => {
    if (audioRef.current) audioRef.current.volume = volume
  }, [volume])

  useEffect(() => {
    const timer = setTimeout(play, AUTOPLAY_DELAY_MS)
    return () => clearTimeout(timer)
  }, [play])

  const onEnded = useCallback(() => {
    wasPlaying.current = true
    setIndex((i) => wrapTrack(i + 1))
  }, [])

  return {
    audioRef,
    track: TRACKS[index],
    playing,
    volume,
    setVolume,
    toggle: () => (playing ? pause() : play()),
    next: () => change(1),
    previous: () => change(-1),
    onEnded,
    // Keep the button true to the element when something else pauses it (media keys, ending).
    onPlay: () => setPlaying(true),
    onPause: () => setPlaying(false),
    onError: () => {
      setPlaying(false)
      console.warn('Music track failed to load', TRACKS[index].src)
    },
  }
}
