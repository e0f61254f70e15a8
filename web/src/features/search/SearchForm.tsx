import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import './search.css'

// The URL holds the submitted query; the input holds what is being typed.
export function SearchForm({ initial, onSearch, label, placeholder }: { initial: string; onSearch: (q: string) => void; label?: string; placeholder?: string }) {
  const { t } = useTranslation('search')
  const id = useId()
  const [draft, setDraft] = useState(initial)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSearch(draft.trim())
  }
  return (
    <form role="search" className="search-form" onSubmit={submit}>
      <Field label={label ?? t('label')} row="search-row" after={<Button type="submit">{t('submit')}</Button>}>
        <Input id={id} type="search" name="q" value={draft} maxLength={200} placeholder={placeholder ?? t('placeholder')} onChange={(e) => setDraft(e.target.value)} />
      </Field>
    </form>
  )
}
