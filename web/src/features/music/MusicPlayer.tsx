import { useTranslation } from 'react-i18next'
import { TRACKS } from './tracks'
import { usePlayer } from './usePlayer'
import { Input } from '@/components/Input'

/** A round play/pause button at the bottom right; hover or focus opens the panel. */
export function MusicPlayer() {
  const { t } = useTranslation()
  const p = usePlayer()
  return (
    <div className="music-player">
      <audio ref={p.audioRef} src={TRACKS[0].src} preload="none" onEnded={p.onEnded} onError={p.onError} onPlay={p.onPlay} onPause={p.onPause} />
      <div className="music-panel" role="group" aria-label={t('music.label')}>
        <p className="music-track" aria-live="polite">
          {p.track.title}
        </p>
        <div className="music-controls">
          <button type="button" className="icon-button" aria-label={t('music.previous')} onClick={p.previous}>
            <Icon d="M6 5h2v14H6zM20 5v14L9 12z" />
          </button>
          <button type="button" className="icon-button" aria-label={p.playing ? t('music.pause') : t('music.play')} onClick={p.toggle}>
            <Icon d={p.playing ? PAUSE : PLAY} />
          </button>
          <button type="button" className="icon-button" aria-label={t('music.next')} onClick={p.next}>
            <Icon d="M16 5h2v14h-2zM4 5v14l11-7z" />
          </button>
        </div>
        <Input
          type="range"
          className="music-volume"
          aria-label={t('music.volume')}
          min={0}
          max={1}
          step={0.1}
          value={p.volume}
          onChange={(e) => p.setVolume(Number(e.target.value))}
        />
      </div>
      <button type="button" className="music-button" aria-label={p.playing ? t('music.pause') : t('music.play')} onClick={p.toggle}>
        <Icon d={p.playing ? PAUSE : PLAY} />
      </button>
    </div>
  )
}

const PLAY = 'M8 5v14l11-7z'
const PAUSE = 'M6 5h4v14H6zM14 5h4v14h-4z'

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="currentColor">
      <path d={d} />
    </svg>
  )
}
