import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { PreloadLink } from '@/components/PreloadLink'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { canMaintain, type Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { invalidTopics, MAX_TOPICS, parseTopics, topicHref, useSetTopics } from './api'
import './topics.css'

/** A repository's topics, each leading to Explore; its admins edit them in place. */
export function RepoTopics({ repo }: { repo: Repository }) {
  const { t } = useTranslation('topics')
  const [editing, setEditing] = useState(false)
  const topics = repo.topics ?? []
  const admin = canMaintain(repo)
  if (editing) return <TopicsEditor repo={repo} onDone={() => setEditing(false)} />
  return (
    <div className="topics">
      {topics.length > 0 ? (
        <TopicList topics={topics} />
      ) : (
        admin && <p className="muted">{t('none')}</p>
      )}
      {admin && (
        <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
          {t('edit')}
        </Button>
      )}
    </div>
  )
}

/** Topics as links to Explore, filtered by each. */
export function TopicList({ topics }: { topics: string[] }) {
  const { t } = useTranslation('topics')
  return (
    <ul className="topic-list" aria-label={t('list')}>
      {topics.map((topic) => (
        <li key={topic}>
          <PreloadLink className="topic" to={topicHref(topic)}>
            {topic}
          </PreloadLink>
        </li>
      ))}
    </ul>
  )
}

function TopicsEditor({ repo, onDone }: { repo: Repository; onDone: () => void }) {
  const { t } = useTranslation('topics')
  const id = useId()
  const [text, setText] = useState((repo.topics ?? []).join(' '))
  const topics = parseTopics(text)
  const bad = invalidTopics(topics)
  const problem = bad.length > 0 ? t('invalid', { topics: bad.join(', ') }) : topics.length > MAX_TOPICS ? t('tooMany', { max: MAX_TOPICS }) : null
  const save = useSetTopics(repo.owner.login, repo.name, onDone)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!problem) save.mutate(topics)
  }
  return (
    <form className="topics-editor stack" onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && onDone()}>
      <Field label={t('label')} hint={t('help', { max: MAX_TOPICS })}>
        <Input id={`${id}-t`} value={text} autoComplete="off" autoFocus aria-invalid={problem ? true : undefined} onChange={(e) => setText(e.target.value)} />
      </Field>
      {(problem || save.isError) && (
        <p className="alert-error" role="alert">
          {problem ?? errorText(save.error)}
        </p>
      )}
      <div className="button-row">
        <Button type="submit" size="sm" disabled={Boolean(problem) || save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  )
}
