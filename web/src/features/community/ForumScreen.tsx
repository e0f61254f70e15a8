import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
// The blog's accessible tab row; a candidate for web/src/components.
import { Tabs } from '@/components/Tabs'
import { FORUM_CATEGORIES, type ForumCategory, TOPIC_LABELS } from './forum'
import './community.css'

/** /forum: the categories, each empty until the forum has topics. */
export default function ForumScreen() {
  const { t } = useTranslation('community')
  useDocumentTitle(t('forum.title'))
  const [category, setCategory] = useState<ForumCategory>('all')
  return (
    <>
      <PageHeader title={t('forum.title')} lead={t('forum.lead')} actions={<NewTopic />} />
      <Tabs
        label={t('forum.categoriesLabel')}
        tabs={FORUM_CATEGORIES.map((id) => ({ id, label: t(`forum.categories.${id}`) }))}
        selected={category}
        onSelect={setCategory}
      >
        <p className="muted">{t(`forum.categoryDescriptions.${category}`)}</p>
        <EmptyState message={t('forum.empty')} />
      </Tabs>
      <section className="community-section" aria-labelledby="forum-how">
        <h2 id="forum-how">{t('forum.howTopicsWork')}</h2>
        <dl className="forum-legend">
          {TOPIC_LABELS.map((label) => (
            <div key={label}>
              <dt>
                <span className="badge">{t(`forum.labels.${label}`)}</span>
              </dt>
              <dd>{t(`forum.labelHelp.${label}`)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  )
}

// Disabled with the reason next to it: accounts exist, but the forum to post in does not yet.
function NewTopic() {
  const { t } = useTranslation('community')
  return (
    <div>
      <Button disabled aria-describedby="forum-new-topic-note">
        {t('forum.newTopic')}
      </Button>
      <p id="forum-new-topic-note" className="muted community-note">
        {t('forum.newTopicNote')}
      </p>
    </div>
  )
}
