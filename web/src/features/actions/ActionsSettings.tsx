import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import type { Repository } from '@/lib/forge/api'
import { RunnerSettings } from './RunnerSettings'
import { SecretSettings } from './SecretSettings'
import { VariableSettings } from './VariableSettings'
import './actions.css'

/** The repository owner's Actions settings: the runners that take its jobs, and the secrets and variables its workflows read. */
export function ActionsSettings({ repo }: { repo: Repository }) {
  const { t } = useTranslation('actions')
  const id = useId()
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('settings.heading')}</h2>
      <p className="muted">{t('settings.help')}</p>
      <RunnerSettings repo={repo} />
      <SecretSettings repo={repo} />
      <VariableSettings repo={repo} />
    </Card>
  )
}
