import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Paged } from '@/components/Lists'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { KEYS_PER_PAGE, keyProblem, type PublicKey, useAddSshKey, useDeleteSshKey, useSshKeys } from './sshKeysApi'
import { ErrorAlert, Section, useFormatDate } from './Section'

/** SSH keys: add one (title and pasted public key), list them with their fingerprints, delete. */
export function SshKeysTab() {
  const { t } = useTranslation('sshkeys')
  const [page, setPage] = useState(1)
  const query = useSshKeys(page)
  return (
    <Section title={t('title')}>
      <p className="muted">{t('description')}</p>
      <AddKeyForm onAdded={() => setPage(1)} />
      <h3>{t('listTitle')}</h3>
      <Paged query={query} page={page} onPage={setPage} limit={KEYS_PER_PAGE} label={t('listTitle')} empty={t('empty')}>
        {(keys) => (
          <ul className="settings-list" aria-label={t('listTitle')}>
            {keys.map((key) => (
              <KeyRow key={key.id} sshKey={key} />
            ))}
          </ul>
        )}
      </Paged>
    </Section>
  )
}

function AddKeyForm({ onAdded }: { onAdded: () => void }) {
  const { t } = useTranslation('sshkeys')
  const id = useId()
  const [title, setTitle] = useState('')
  const [key, setKey] = useState('')
  const [tried, setTried] = useState(false)
  const add = useAddSshKey(() => {
    setTitle('')
    setKey('')
    setTried(false)
    onAdded()
  })
  const titleMissing = !title.trim()
  const problem = keyProblem(key)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (!titleMissing && !problem) add.mutate({ title: title.trim(), key: key.trim() })
  }
  const showTitleError = tried && titleMissing
  const showKeyError = tried && problem !== null
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('add')}</h3>
      <Field label={t('keyTitle')} error={showTitleError ? t('titleRequired') : undefined}>
        <Input
          id={`${id}-name`}
          name="title"
          value={title}
          maxLength={255}
          placeholder={t('keyTitlePlaceholder')}
          onChange={(e) => setTitle(e.target.value)}
        />
      </Field>
      <Field label={t('key')} hint={t('keyHint')} error={showKeyError ? t(`problem.${problem}`) : undefined}>
        <Textarea
          id={`${id}-key`}
          name="key"
          className="mono"
          rows={4}
          value={key}
          spellCheck={false}
          placeholder="ssh-ed25519 AAAA… you@example.org"
          onChange={(e) => setKey(e.target.value)}
        />
      </Field>
      <Button type="submit" disabled={add.isPending}>
        {add.isPending ? t('adding') : t('addButton')}
      </Button>
      {add.isError && <ErrorAlert error={add.error} />}
    </form>
  )
}

function KeyRow({ sshKey }: { sshKey: PublicKey }) {
  const { t } = useTranslation('sshkeys')
  const formatDate = useFormatDate()
  const [confirming, setConfirming] = useState(false)
  const remove = useDeleteSshKey(sshKey.id)
  return (
    <li className="settings-list-item">
      <div>
        <strong>{sshKey.title}</strong> <code>{sshKey.fingerprint}</code>
        <div className="muted">{t('added', { date: formatDate(sshKey.created_at) })}</div>
      </div>
      {confirming ? (
        <div className="settings-confirm" role="group" aria-label={t('confirmLabel', { title: sshKey.title })}>
          <span>{t('confirm', { title: sshKey.title })}</span>
          <Button size="sm" variant="danger" autoFocus onClick={() => remove.mutate()} disabled={remove.isPending}>
            {t('confirmDelete')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={remove.isPending}>
            {t('cancel')}
          </Button>
        </div>
      ) : (
        <Button size="sm" variant="outline" aria-label={t('deleteNamed', { title: sshKey.title })} onClick={() => setConfirming(true)}>
          {t('delete')}
        </Button>
      )}
      {remove.isError && <ErrorAlert error={remove.error} />}
    </li>
  )
}
