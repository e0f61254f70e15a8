import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useFaq } from './api'
import { filterFaq } from './faqSearch'
import './help.css'

export default function FaqScreen() {
  const { t } = useTranslation('help')
  const [query, setQuery] = useState('')
  const faq = useFaq()
  useDocumentTitle(t('faq.title'))
  return (
    <div className="stack">
      <PageHeader title={t('faq.title')} lead={t('faq.lead')} />
      <Field label={t('faq.searchLabel')} className="faq-search">
        <Input id="faq-search" type="search" value={query} placeholder={t('faq.searchPlaceholder')} onChange={(e) => setQuery(e.target.value)} />
      </Field>
      <QueryState query={faq}>
        {(groups) => {
          const shown = filterFaq(groups, query)
          if (shown.length === 0) return <EmptyState message={t('faq.empty')} />
          const count = shown.reduce((n, g) => n + g.items.length, 0)
          return (
            <>
              {query && (
                <p className="muted" role="status">
                  {t('faq.results', { count })}
                </p>
              )}
              {shown.map((g) => (
                <section key={g.id} aria-labelledby={`faq-${g.id}`} className="faq-group">
                  <h2 id={`faq-${g.id}`}>{g.title}</h2>
                  {g.items.map((it) => (
                    <details key={it.question} className="faq-item" open={query !== ''}>
                      <summary>{it.question}</summary>
                      <Markdown html={it.html} />
                    </details>
                  ))}
                </section>
              ))}
            </>
          )
        }}
      </QueryState>
    </div>
  )
}
