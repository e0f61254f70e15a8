import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Button } from '@/components/Button'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './community.css'

/**
 * /forum/topic/{id}. The forum has no topics yet (and no API to ask), so every
 * id is not found; the reply box shows where replying will be, disabled.
 */
export default function ForumTopicScreen() {
  const { t } = useTranslation('community')
  const id = useRoute().params.id ?? ''
  useDocumentTitle(t('topic.notFound.title'))
  return (
    <>
      <PageHeader title={t('topic.notFound.title')} lead={t('topic.notFound.description', { id })} />
      <PreloadLink className="btn btn-primary btn-md" to="/forum">
        {t('topic.notFound.back')}
      </PreloadLink>
      <section className="community-section forum-reply" aria-labelledby="topic-reply">
        <h2 id="topic-reply">{t('topic.reply.title')}</h2>
        <form onSubmit={(e) => e.preventDefault()}>
          <div className="field">
            <label htmlFor="topic-reply-text">{t('topic.reply.label')}</label>
            <textarea id="topic-reply-text" disabled aria-describedby="topic-reply-note" />
          </div>
          <Button type="submit" disabled aria-describedby="topic-reply-note">
            {t('topic.reply.submit')}
          </Button>
          <p id="topic-reply-note" className="muted community-note">
            {t('topic.reply.note')}
          </p>
        </form>
      </section>
    </>
  )
}
