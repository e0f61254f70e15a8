import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { SignInNotice } from '@/components/SignInNotice'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { nav } from '@/lib/forge/nav'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Org, orgHref, orgNameProblem, PAGE_SIZE, useCreateOrg, useOrgList } from './api'
import './orgs.css'

/** /groups: the signed-in user's organizations, a form for a new one, and every organization on the chain. */
export default function OrgsScreen() {
  const { t } = useTranslation('orgs')
  const user = useSignedInUser()
  useDocumentTitle(t('groups.title'))
  return (
    <div className="stack">
      <PageHeader title={t('groups.title')} lead={t('groups.lead')} />
      {user ? (
        <>
          <OrgList mine label={t('groups.mine')} empty={t('groups.mineEmpty')} />
          <NewOrgForm />
        </>
      ) : (
        <SignInNotice message={t('groups.signIn')} />
      )}
      <OrgList mine={false} label={t('groups.all')} empty={t('groups.allEmpty')} />
    </div>
  )
}

function OrgList({ mine, label, empty }: { mine: boolean; label: string; empty: string }) {
  const id = useId()
  const [page, setPage] = useState(1)
  const query = useOrgList(mine, page)
  return (
    <Card as="section" aria-labelledby={id}>
      <h2 id={id}>{label}</h2>
      <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={label} empty={empty}>
        {(orgs) => (
          <ul className="plain-list org-list">
            {orgs.map((o) => (
              <OrgRow key={o.id} org={o} />
            ))}
          </ul>
        )}
      </Paged>
    </Card>
  )
}

function OrgRow({ org }: { org: Org }) {
  const { t } = useTranslation('orgs')
  return (
    <li>
      <PreloadLink to={orgHref(org.username)} className="org-name">
        {org.full_name || org.username}
      </PreloadLink>
      {org.full_name && <span className="muted"> @{org.username}</span>}
      {org.description && <p className="muted org-description">{org.description}</p>}
      {org.repo_count !== undefined && <span className="muted">{t('org.repoCount', { count: org.repo_count })}</span>}
    </li>
  )
}

function NewOrgForm() {
  const { t } = useTranslation('orgs')
  const id = useId()
  const [name, setName] = useState('')
  const [fullName, setFullName] = useState('')
  const [description, setDescription] = useState('')
  const [touched, setTouched] = useState(false)
  const problem = orgNameProblem(name.trim())
  const create = useCreateOrg((org) => nav.go(orgHref(org.username)))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!problem) create.mutate({ username: name.trim(), full_name: fullName.trim(), description: description.trim() })
  }
  const showProblem = touched && problem
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('create.title')}</h2>
      <p className="muted">{t('create.lead')}</p>
      <form onSubmit={submit} noValidate aria-labelledby={`${id}-h`}>
        <Field label={t('create.name')} hint={showProblem ? undefined : t('create.nameHelp')} error={showProblem ? t(problem) : undefined}>
          <Input
            id={`${id}-name`}
            value={name}
            maxLength={39}
            autoComplete="off"
            required
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setTouched(true)}
          />
        </Field>
        <Field label={t('create.fullName')}>
          <Input id={`${id}-full`} value={fullName} maxLength={100} onChange={(e) => setFullName(e.target.value)} />
        </Field>
        <Field label={t('create.description')}>
          <Input id={`${id}-desc`} value={description} maxLength={255} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        {create.isError && (
          <p className="alert-error" role="alert">
            {errorText(create.error)}
          </p>
        )}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? t('create.submitting') : t('create.submit')}
        </Button>
      </form>
    </Card>
  )
}
