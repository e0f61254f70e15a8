import { useTranslation } from 'react-i18next'
import type { ActionState } from './api'

const ICONS: Record<ActionState, string> = {
  blocked: '◌',
  waiting: '●',
  running: '◐',
  success: '✓',
  failure: '✗',
  cancelled: '⊘',
  skipped: '⤼',
}

/** A run's, job's or step's state as an icon, named for screen readers. */
export function StateIcon({ state }: { state: ActionState }) {
  const { t } = useTranslation('actions')
  const label = t(`state.${state}`, { defaultValue: state })
  return (
    <span className={`action-state action-state-${state}`} role="img" aria-label={label} title={label}>
      {ICONS[state] ?? '?'}
    </span>
  )
}
