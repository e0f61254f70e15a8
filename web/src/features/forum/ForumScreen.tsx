import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Dialog } from '@/components/Dialog'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { SignInNotice } from '@/components/SignInNotice'
import { Tabs } from '@/components/Tabs'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { MarkdownEditor, UserLink } from '@/features/issues'
import { useForgeFormat } from '@/lib/forge/format'
import { nav } from '@/lib/forge/nav'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { CATEGORIES, type Category, MAX_QUERY, MAX_TITLE, TOPICS_PAGE, type TopicSummary, useCategories, useCreateTopic, useTopics } from './api'
import { TopicMarkers } from './TopicMarkers'
import './forum.css'

type Tab = 'all' | Category

/** /forum: topics by category, pinned first then latest activity, a title search, and New topic, which opens the composer. */
export default function ForumScreen() {
  const { t } = useTranslation('forum')
  useDocumentTitle(t('title'))
  const [category, setCategory] = useUrlParam('category', 'all')
  const [q, setQ] = useUrlParam('q')
  const [page, setPage] = useState(1)
  const [composing, setComposing] = useState(false)
  const selected: Tab = (CATEGORIES as readonly string[]).includes(category) ? (category as Category) : 'all'
  const counts = useCategories()
  const count = (id: Tab) => {
    const list = counts.data ?? []
    return id === 'all' ? list.reduce((n, c) => n + c.topics, 0) : list.find((c) => c.name === id)?.topics
  }
  const tabs = (['all', ...CATEGORIES] as Tab[]).map((id) => {
    const n = count(id)
    return { id, label: n === undefined || counts.data === undefined ? t(`categories.${id}`) : t('categoryCount', { name: t(`categories.${id}`), count: n }) }
  })
  return (
    <div className="stack forum">
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          <Button onClick={() => setComposing(true)} aria-haspopup="dialog">
            {t('new.open')}
          </Button>
        }
      />
      <SearchForm
        value={q}
        onSearch={(v) => {
          setQ(v)
          setPage(1)
        }}
      />
      <Tabs
        label={t('categoriesLabel')}
        tabs={tabs}
        selected={selected}
        onSelect={(id) => {
          setCategory(id)
          setPage(1)
        }}
      >
        <p className="muted">{t(`categoryDescriptions.${selected}`)}</p>
        <TopicList category={selected === 'all' ? '' : selected} q={q} page={page} onPage={setPage} />
      </Tabs>
      {composing && <NewTopic category={selected === 'all' ? 'general' : selected} onClose={() => setComposing(false)} />}
    </div>
  )
}

function SearchForm({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation('forum')
  const id = useId()
  const [text, setText] = useState(value)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSearch(text.trim())
  }
  return (
    <form role="search" className="forum-search" onSubmit={submit} aria-label={t('search.label')}>
      <label htmlFor={id} className="sr-only">
        {t('search.label')}
      </label>
      <Input id={id} className="input" type="search" value={text} maxLength={MAX_QUERY} placeholder={t('search.placeholder')} onChange={(e) => setText(e.target.value)} />
      <Button type="submit" size="sm" variant="outline">
        {t('search.submit')}
      </Button>
    </form>
  )
}

function TopicList({ category, q, page, onPage }: { category: string; q: string; page: number; onPage: (p: number) => void }) {
  const { t } = useTranslation('forum')
  const topics = useTopics(category, q, page)
  return (
    <Paged query={topics} page={page} onPage={onPage} limit={TOPICS_PAGE} label={t('listLabel')} empty={q ? t('noMatches', { q }) : t('empty')}>
      {(items) => (
        <ul className="forum-topics" aria-label={t('listLabel')}>
          {items.map((topic) => (
            <TopicRow key={topic.id} topic={topic} />
          ))}
        </ul>
      )}
    </Paged>
  )
}

function TopicRow({ topic }: { topic: TopicSummary }) {
  const { t } = useTranslation('forum')
  const fmt = useForgeFormat()
  return (
    <li className="forum-topic-row">
      <div>
        <PreloadLink to={`/forum/topic/${topic.id}`} className="forum-topic-title">
          {topic.title}
        </PreloadLink>
        <TopicMarkers topic={topic} />
      </div>
      <div className="muted forum-topic-meta">
        <span className="badge">{t(`categories.${topic.category}`)}</span> <UserLink user={topic.author} /> · {t('replies', { count: topic.replies })} ·{' '}
        <time dateTime={topic.last_post_at} title={topic.last_post_at}>
          {t('lastActivity', { when: fmt.ago(topic.last_post_at) })}
        </time>
      </div>
    </li>
  )
}

/** The composer, as a dialog: the New topic form for a signed-in user; a visitor is asked to sign in. */
function NewTopic({ category, onClose }: { category: Category; onClose: () => void }) {
  const { t } = useTranslation('forum')
  const user = useSignedInUser()
  return (
    <Dialog title={t('new.heading')} closeLabel={t('new.close')} onClose={onClose}>
      {user ? <NewTopicForm initial={category} /> : <SignInNotice message={t('new.signIn')} />}
    </Dialog>
  )
}

function NewTopicForm({ initial }: { initial: Category }) {
  const { t } = useTranslation('forum')
  const id = useId()
  const [category, setCategory] = useState<Category>(initial)
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [touched, setTouched] = useState(false)
  const create = useCreateTopic((topic) => nav.go(`/forum/topic/${topic.id}`))
  const missingTitle = touched && !title.trim()
  const missingBody = touched && !body.trim()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (title.trim() && body.trim()) create.mutate({ category, title: title.trim(), body })
  }
  return (
    <form className="forum-new" onSubmit={submit} noValidate aria-label={t('new.heading')}>
      <Field label={t('new.category')} hint={category === 'announcements' ? t('new.announcementsNote') : undefined}>
        <Select id={`${id}-c`} value={category} onChange={(e) => setCategory(e.target.value as Category)}>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`categories.${c}`)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('new.titleLabel')} error={missingTitle ? t('new.titleRequired') : undefined}>
        <Input id={`${id}-t`} value={title} maxLength={MAX_TITLE} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <MarkdownEditor label={t('new.bodyLabel')} value={body} onChange={setBody} rows={8} />
      {missingBody && <p className="field-error">{t('new.bodyRequired')}</p>}
      {create.isError && (
        <p className="field-error" role="alert">
          {errorText(create.error)}
        </p>
      )}
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? t('new.posting') : t('new.submit')}
      </Button>
    </form>
  )
}
