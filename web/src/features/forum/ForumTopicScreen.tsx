import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { Markdown } from '@/components/Markdown'
import { NotFoundCard } from '@/components/NotFoundCard'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { MarkdownEditor, UserLink } from '@/features/issues'
import { HiddenContent, ReportButton } from '@/features/moderation'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import {
  CATEGORIES,
  type Category,
  MAX_TITLE,
  type Post,
  POSTS_PAGE,
  quoteOf,
  type Topic,
  useCreatePost,
  useEditPost,
  useEditTopic,
  useModerateTopic,
  usePosts,
  useToggleAnswer,
  useTopic,
} from './api'
import { RevisionHistory, TopicMarkers } from './TopicMarkers'
import './forum.css'

const REPLY_ID = 'forum-reply-text'

/** /forum/topic/{id}: the topic, its replies page by page, the reply box, and the author's and moderators' controls. */
export default function ForumTopicScreen() {
  const raw = useRoute().params.id ?? ''
  const id = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : 0
  const topic = useTopic(id)
  if (id === 0 || topic.error instanceof NotFoundError) return <TopicNotFound id={raw} />
  return <QueryState query={topic}>{(data) => <TopicPage topic={data} />}</QueryState>
}

function TopicNotFound({ id }: { id: string }) {
  const { t } = useTranslation('forum')
  useDocumentTitle(t('notFound.title'))
  return <NotFoundCard title={t('notFound.title')} description={t('notFound.description', { id })} links={[{ to: '/forum', label: t('notFound.back') }]} />
}

function TopicPage({ topic }: { topic: Topic }) {
  const { t } = useTranslation('forum')
  useDocumentTitle(topic.title)
  const [page, setPage] = useState(1)
  const [reply, setReply] = useState({ text: '', quote: 0 })
  const posts = usePosts(topic.id, page)
  const quote = (post: Post) => {
    setReply((r) => ({ text: quoteOf(post) + r.text, quote: post.id }))
    const box = document.getElementById(REPLY_ID)?.querySelector('textarea')
    box?.focus()
  }
  return (
    <div className="stack forum">
      <p>
        <PreloadLink to="/forum">{t('backToForum')}</PreloadLink>
      </p>
      <OpeningPost topic={topic} />
      {topic.can_moderate && <ModeratorControls topic={topic} />}
      <section aria-labelledby="forum-replies">
        <h2 id="forum-replies">{t('topic.replies', { count: topic.replies })}</h2>
        <Paged query={posts} page={page} onPage={setPage} limit={POSTS_PAGE} label={t('topic.repliesLabel')} empty={t('topic.noReplies')}>
          {(items) => (
            <ol className="forum-posts">
              {items.map((post) => (
                <li key={post.id} id={`post-${post.id}`}>
                  <PostCard post={post} topic={topic} onQuote={quote} />
                </li>
              ))}
            </ol>
          )}
        </Paged>
      </section>
      <ReplyBox topic={topic} value={reply} onChange={setReply} />
    </div>
  )
}

function OpeningPost({ topic }: { topic: Topic }) {
  const { t } = useTranslation('forum')
  const fmt = useForgeFormat()
  const [editing, setEditing] = useState(false)
  const [history, setHistory] = useState(false)
  return (
    <Card as="article" aria-labelledby="forum-topic-title">
      <header className="forum-topic-head">
        <h1 id="forum-topic-title">{topic.title}</h1>
        <TopicMarkers topic={topic} />
        <p className="muted">
          <span className="badge">{t(`categories.${topic.category}`)}</span> <UserLink user={topic.author} /> ·{' '}
          <time dateTime={topic.created_at} title={topic.created_at}>
            {fmt.ago(topic.created_at)}
          </time>
        </p>
      </header>
      {editing ? <EditTopicForm topic={topic} onDone={() => setEditing(false)} /> : <Markdown html={topic.body_html} />}
      <div className="button-row">
        {topic.can_edit && !editing && (
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            {t('edit.topic')}
          </Button>
        )}
        {topic.revisions > 0 && (
          <Button size="sm" variant="ghost" aria-expanded={history} onClick={() => setHistory(!history)}>
            {t('history.show', { count: topic.revisions })}
          </Button>
        )}
      </div>
      {history && <RevisionHistory kind="topics" id={topic.id} />}
    </Card>
  )
}

function EditTopicForm({ topic, onDone }: { topic: Topic; onDone: () => void }) {
  const { t } = useTranslation('forum')
  const id = useId()
  const [title, setTitle] = useState(topic.title)
  const [body, setBody] = useState(topic.body)
  const save = useEditTopic(topic.id, onDone)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (title.trim() && body.trim()) save.mutate({ title: title.trim(), body })
  }
  return (
    <form onSubmit={submit} aria-label={t('edit.topic')}>
      <Field label={t('new.titleLabel')}>
        <Input id={`${id}-t`} value={title} maxLength={MAX_TITLE} required onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <MarkdownEditor label={t('new.bodyLabel')} value={body} onChange={setBody} rows={8} required autoFocus />
      <SaveRow pending={save.isPending} error={save.isError ? errorText(save.error) : ''} onCancel={onDone} />
    </form>
  )
}

function SaveRow({ pending, error, onCancel }: { pending: boolean; error: string; onCancel: () => void }) {
  const { t } = useTranslation('forum')
  return (
    <>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="button-row">
        <Button type="submit" size="sm" disabled={pending}>
          {t('edit.save')}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          {t('edit.cancel')}
        </Button>
      </div>
    </>
  )
}

function PostCard({ post, topic, onQuote }: { post: Post; topic: Topic; onQuote: (p: Post) => void }) {
  const { t } = useTranslation('forum')
  const fmt = useForgeFormat()
  const [editing, setEditing] = useState(false)
  const [history, setHistory] = useState(false)
  const answer = useToggleAnswer(topic.id, post)
  return (
    <Card as="article" className={post.is_answer ? 'forum-post forum-post-answer' : 'forum-post'} aria-label={t('post.label', { login: post.author.login })}>
      <header className="muted">
        <UserLink user={post.author} /> ·{' '}
        <time dateTime={post.created_at} title={post.created_at}>
          {fmt.ago(post.created_at)}
        </time>
        {post.revisions > 0 && <> · {t('post.edited')}</>}
        {post.is_answer && <span className="badge forum-answered">{t('labels.acceptedAnswer')}</span>}
        {post.quote_id > 0 && (
          <>
            {' '}
            · <a href={`#post-${post.quote_id}`}>{t('post.quoting')}</a>
          </>
        )}
      </header>
      {editing ? (
        <EditPostForm post={post} onDone={() => setEditing(false)} />
      ) : (
        <HiddenContent item={post}>
          <Markdown html={post.body_html} />
        </HiddenContent>
      )}
      <div className="button-row">
        {topic.can_reply && !post.hidden && (
          <Button size="sm" variant="ghost" onClick={() => onQuote(post)}>
            {t('post.quote')}
          </Button>
        )}
        {post.can_edit && !editing && (
          <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
            {t('edit.post')}
          </Button>
        )}
        {topic.can_answer && (
          <Button size="sm" variant="outline" disabled={answer.isPending} onClick={() => answer.mutate()}>
            {post.is_answer ? t('post.unmarkAnswer') : t('post.markAnswer')}
          </Button>
        )}
        {post.revisions > 0 && (
          <Button size="sm" variant="ghost" aria-expanded={history} onClick={() => setHistory(!history)}>
            {t('history.show', { count: post.revisions })}
          </Button>
        )}
        <ReportButton kind="forum_post" target={String(post.id)} label={t('post.label', { login: post.author.login })} />
      </div>
      {answer.isError && (
        <p className="field-error" role="alert">
          {errorText(answer.error)}
        </p>
      )}
      {history && <RevisionHistory kind="posts" id={post.id} />}
    </Card>
  )
}

function EditPostForm({ post, onDone }: { post: Post; onDone: () => void }) {
  const { t } = useTranslation('forum')
  const [body, setBody] = useState(post.body)
  const save = useEditPost(post.id, onDone)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (body.trim()) save.mutate(body)
  }
  return (
    <form onSubmit={submit} aria-label={t('edit.post')}>
      <MarkdownEditor label={t('reply.label')} value={body} onChange={setBody} required autoFocus />
      <SaveRow pending={save.isPending} error={save.isError ? errorText(save.error) : ''} onCancel={onDone} />
    </form>
  )
}

/** Pin, lock and move: shown to forum moderators only (the server says who is one: can_moderate). */
function ModeratorControls({ topic }: { topic: Topic }) {
  const { t } = useTranslation('forum')
  const id = useId()
  const [category, setCategory] = useState<Category>(topic.category)
  const act = useModerateTopic(topic.id)
  return (
    <Card as="section" aria-labelledby={`${id}-h`} className="forum-moderation">
      <h2 id={`${id}-h`}>{t('moderate.heading')}</h2>
      <div className="button-row">
        <Button size="sm" variant="outline" disabled={act.isPending} onClick={() => act.mutate({ flag: 'pin', on: !topic.pinned })}>
          {topic.pinned ? t('moderate.unpin') : t('moderate.pin')}
        </Button>
        <Button size="sm" variant="outline" disabled={act.isPending} onClick={() => act.mutate({ flag: 'lock', on: !topic.locked })}>
          {topic.locked ? t('moderate.unlock') : t('moderate.lock')}
        </Button>
        <label htmlFor={`${id}-c`}>{t('moderate.moveTo')}</label>
        <Select id={`${id}-c`} value={category} onChange={(e) => setCategory(e.target.value as Category)}>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`categories.${c}`)}
            </option>
          ))}
        </Select>
        <Button size="sm" variant="outline" disabled={act.isPending || category === topic.category} onClick={() => act.mutate({ move: category })}>
          {t('moderate.move')}
        </Button>
      </div>
      {act.isError && (
        <p className="field-error" role="alert">
          {errorText(act.error)}
        </p>
      )}
    </Card>
  )
}

function ReplyBox({ topic, value, onChange }: { topic: Topic; value: { text: string; quote: number }; onChange: (v: { text: string; quote: number }) => void }) {
  const { t } = useTranslation('forum')
  const user = useSignedInUser()
  const send = useCreatePost(topic.id, () => onChange({ text: '', quote: 0 }))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (value.text.trim()) send.mutate({ body: value.text, quote: value.quote || undefined })
  }
  return (
    <section className="forum-reply" aria-labelledby="forum-reply-heading">
      <h2 id="forum-reply-heading">{t('reply.heading')}</h2>
      {!user ? (
        <SignInNotice message={t('reply.signIn')} />
      ) : topic.locked ? (
        <p className="forum-locked-note" role="status">
          {t('reply.locked')}
        </p>
      ) : (
        <form onSubmit={submit} aria-label={t('reply.heading')} id={REPLY_ID}>
          <MarkdownEditor label={t('reply.label')} value={value.text} onChange={(text) => onChange({ ...value, text })} />
          {send.isError && (
            <p className="field-error" role="alert">
              {errorText(send.error)}
            </p>
          )}
          <Button type="submit" disabled={send.isPending || !value.text.trim()}>
            {send.isPending ? t('reply.posting') : t('reply.submit')}
          </Button>
        </form>
      )}
    </section>
  )
}
