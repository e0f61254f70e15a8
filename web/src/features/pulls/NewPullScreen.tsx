import { type FormEvent, useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { Spinner } from '@/components/Spinner'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { MarkdownEditor } from '@/features/issues'
import { type Branch, type Repository, repoHref, useBranches } from '@/lib/forge/api'
import { headSpec, newestFirst, newPullHref, parseHead, useBranchesOf, useForks } from '@/lib/forge/forks'
import { nav } from '@/lib/forge/nav'
import { RepoPage } from '@/features/repositories'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useCreatePull } from './api'
import { ComparePreview } from './ComparePreview'
import './pulls.css'

/**
 * Opens a pull request: a base repository (this one, or the one it was
 * forked from) and branch, and a head repository (this one, where it was
 * forked from, or a fork) and branch: "compare across forks". The
 * signed-in contributor's own fork and its newest branch are the head
 * unless the URL names one (?base=main&head=owner:branch); the choices
 * are kept in the URL.
 */
export default function NewPullScreen() {
  const { t } = useTranslation('pulls')
  const user = useSignedInUser()
  return <RepoPage section="pulls">{(repo) => (user ? <NewPull repo={repo} login={user.username} /> : <SignInNotice message={t('new.signIn')} />)}</RepoPage>
}

function NewPull({ repo, login }: { repo: Repository; login: string }) {
  const { t } = useTranslation('pulls')
  useDocumentTitle(t('new.title', { repo: repo.full_name }))
  const branches = useBranches(repo.owner.login, repo.name)
  const forks = useForks(repo.owner.login, repo.name)
  return (
    <div className="stack">
      <PageHeader title={t('new.heading')} lead={t('new.lead')} />
      {forks.isPending ? (
        <Spinner />
      ) : (
        <QueryState query={branches}>
          {(list) => <NewPullForm repo={repo} branches={list} forks={forks.data ?? []} login={login} />}
        </QueryState>
      )}
    </div>
  )
}

/** The repositories a head may come from: this one, the one it was forked from, and its forks. */
function headRepositories(repo: Repository, forks: Repository[]): Repository[] {
  const out = [repo]
  for (const r of [...(repo.parent ? [repo.parent] : []), ...forks]) if (!out.some((o) => o.id === r.id)) out.push(r)
  return out
}

/** The head the page opens with: the URL's, else the contributor's own fork, else this repository. */
function initialHead(repo: Repository, heads: Repository[], login: string, param: string) {
  const lower = (s: string) => s.toLowerCase()
  if (param) {
    const { owner, branch } = parseHead(param)
    const from = owner ? heads.find((r) => lower(r.owner.login) === lower(owner)) : repo
    return { repo: from ?? repo, branch }
  }
  const own = heads.find((r) => r.id !== repo.id && r.fork && lower(r.owner.login) === lower(login))
  return { repo: own ?? repo, branch: '' }
}

function NewPullForm({ repo, branches, forks, login }: { repo: Repository; branches: Branch[]; forks: Repository[]; login: string }) {
  const { t } = useTranslation('pulls')
  const id = useId()
  const o = repo.owner.login
  const heads = useMemo(() => headRepositories(repo, forks), [repo, forks])
  const [baseParam, setBaseParam] = useUrlParam('base')
  const [headParam, setHeadParam] = useUrlParam('head')
  const [initial] = useState(() => initialHead(repo, heads, login, headParam))
  const [base, setBase] = useState(baseParam || repo.default_branch)
  const [headRepo, setHeadRepo] = useState(initial.repo)
  const [picked, setPicked] = useState(initial.branch)
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [touched, setTouched] = useState(false)
  const sameRepo = headRepo.id === repo.id
  const other = useBranchesOf(headRepo.owner.login, headRepo.name, !sameRepo)
  const headBranches = sameRepo ? branches : (other.data ?? [])
  // Unless chosen: another branch of this repository, or a fork's newest.
  const fallback = sameRepo ? branches.find((b) => b.name !== base)?.name : newestFirst(headBranches)[0]?.name
  const head = picked || fallback || ''
  const spec = head ? headSpec(repo, headRepo, head) : ''
  useEffect(() => {
    setBaseParam(base)
    setHeadParam(spec)
  }, [base, spec, setBaseParam, setHeadParam])
  const problem = !head ? 'new.errors.noHead' : sameRepo && head === base ? 'new.errors.same' : !title.trim() ? 'new.errors.title' : null
  const create = useCreatePull(o, repo.name, (pr) => nav.go(`${repoHref.section(o, repo.name, 'pulls')}/${pr.number}`))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!problem) create.mutate({ head: spec, base, title: title.trim(), body })
  }
  const bases = repo.parent ? [repo, repo.parent] : [repo]
  const pickBaseRepo = (fullName: string) => {
    const to = bases.find((r) => r.full_name === fullName)
    if (to && to.id !== repo.id) nav.go(newPullHref(to, to.default_branch, head ? headSpec(to, headRepo, head) : ''))
  }
  const headNames = headBranches.map((b) => b.name)
  if (head && !headNames.includes(head)) headNames.unshift(head)
  return (
    <>
      <Card as="section">
        <form onSubmit={submit} noValidate aria-label={t('new.heading')}>
          <div className="branch-pickers">
            <Field label={t('new.baseRepo')}>
              <Select id={`${id}-base-repo`} value={repo.full_name} disabled={bases.length < 2} onChange={(e) => pickBaseRepo(e.target.value)}>
                {bases.map((r) => (
                  <option key={r.id} value={r.full_name}>
                    {r.full_name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={t('new.base')}>
              <Select id={`${id}-base`} value={base} onChange={(e) => setBase(e.target.value)}>
                {branches.map((b) => (
                  <option key={b.name} value={b.name}>
                    {b.name}
                  </option>
                ))}
              </Select>
            </Field>
            <span aria-hidden="true" className="branch-arrow">
              ←
            </span>
            <Field label={t('new.headRepo')}>
              <Select
                id={`${id}-head-repo`}
                value={String(headRepo.id)}
                onChange={(e) => {
                  setHeadRepo(heads.find((r) => String(r.id) === e.target.value) ?? repo)
                  setPicked('')
                }}
              >
                {heads.map((r) => (
                  <option key={r.id} value={String(r.id)}>
                    {r.full_name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={t('new.head')}>
              <Select id={`${id}-head`} value={head} onChange={(e) => setPicked(e.target.value)}>
                <option value="">{t('new.pickHead')}</option>
                {headNames.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <p className="muted">{t('new.acrossForks')}</p>
          <Field label={t('new.titleLabel')}>
            <Input id={`${id}-t`} value={title} maxLength={255} onChange={(e) => setTitle(e.target.value)} />
          </Field>
          <MarkdownEditor label={t('new.bodyLabel')} value={body} onChange={setBody} rows={8} />
          {touched && problem && (
            <p className="field-error" role="alert">
              {t(problem)}
            </p>
          )}
          {create.isError && (
            <p className="alert-error" role="alert">
              {errorText(create.error)}
            </p>
          )}
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? t('new.submitting') : t('new.submit')}
          </Button>
        </form>
      </Card>
      <ComparePreview repo={repo} base={base} head={spec} />
    </>
  )
}
