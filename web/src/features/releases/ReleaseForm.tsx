import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { ProgressBar } from '@/components/ProgressBar'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { MarkdownEditor } from '@/features/issues'
import type { Repository } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { type Asset, type Release, type ReleaseInput, useDeleteAsset, useDeleteRelease, usePublishRelease, useSaveRelease, useUploadAsset } from './api'

/** Creates a release, or edits one when given. */
export function ReleaseForm({ repo, release, onDone }: { repo: Repository; release?: Release; onDone: () => void }) {
  const { t } = useTranslation('releases')
  const id = useId()
  const [input, setInput] = useState<ReleaseInput>({
    tag_name: release?.tag_name ?? '',
    target_commitish: release?.target_commitish ?? repo.default_branch,
    name: release?.name ?? '',
    body: release?.body ?? '',
    draft: release?.draft ?? false,
    prerelease: release?.prerelease ?? false,
  })
  const save = useSaveRelease(repo.owner.login, repo.name, release?.id, onDone)
  const set = <K extends keyof ReleaseInput>(k: K, v: ReleaseInput[K]) => setInput((s) => ({ ...s, [k]: v }))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(input)
  }
  return (
    <Card>
      <form className="stack release-form" onSubmit={submit} aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>{release ? t('form.editHeading') : t('form.newHeading')}</h2>
        <Field label={t('form.tag')}>
          <Input required value={input.tag_name} maxLength={255} onChange={(e) => set('tag_name', e.target.value)} placeholder="v1.0.0" />
        </Field>
        <Field label={t('form.target')}>
          <Input value={input.target_commitish} maxLength={255} onChange={(e) => set('target_commitish', e.target.value)} />
        </Field>
        <Field label={t('form.title')}>
          <Input value={input.name} maxLength={255} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <MarkdownEditor label={t('form.notes')} value={input.body} onChange={(v) => set('body', v)} />
        {/* A published release is on chain for good: it cannot become a draft again. */}
        {(!release || release.draft) && (
          <label className="checkbox">
            <Input type="checkbox" checked={input.draft} onChange={(e) => set('draft', e.target.checked)} /> {t('form.draft')}
          </label>
        )}
        <label className="checkbox">
          <Input type="checkbox" checked={input.prerelease} onChange={(e) => set('prerelease', e.target.checked)} /> {t('form.prerelease')}
        </label>
        {save.isError && (
          <p role="alert" className="inline-error">
            {errorText(save.error)}
          </p>
        )}
        <div className="button-row">
          <Button type="submit" disabled={save.isPending || !input.tag_name.trim()}>
            {save.isPending ? t('form.saving') : release ? t('form.save') : input.draft ? t('form.saveDraft') : t('form.create')}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            {t('form.cancel')}
          </Button>
        </div>
      </form>
    </Card>
  )
}

/** Picks a file and uploads it as an asset, showing the bytes sent. */
export function AssetUpload({ repo, release }: { repo: Repository; release: Release }) {
  const { t } = useTranslation('releases')
  const fmt = useForgeFormat()
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null)
  const upload = useUploadAsset(repo.owner.login, repo.name, release.id, setProgress)
  return (
    <div className="asset-upload">
      <label className="btn btn-secondary btn-sm">
        {t('upload.choose')}
        <Input
          type="file"
          className="visually-hidden"
          disabled={upload.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) upload.mutate(file)
            e.target.value = ''
          }}
        />
      </label>
      {progress && (
        <ProgressBar
          value={progress.sent}
          max={progress.total}
          label={t('upload.progress')}
          valueText={t('upload.sent', { sent: fmt.bytes(progress.sent), total: fmt.bytes(progress.total) })}
        />
      )}
      {upload.isError && (
        <span role="alert" className="inline-error">
          {errorText(upload.error)}
        </span>
      )}
    </div>
  )
}

/** Publishes a draft: the server puts it and its assets on chain and in IPFS. */
export function PublishRelease({ repo, release }: { repo: Repository; release: Release }) {
  const { t } = useTranslation('releases')
  const publish = usePublishRelease(repo.owner.login, repo.name, release.id)
  return (
    <>
      <Button size="sm" disabled={publish.isPending} onClick={() => publish.mutate()}>
        {publish.isPending ? t('publishing') : t('publish')}
      </Button>
      {publish.isError && (
        <span role="alert" className="inline-error">
          {errorText(publish.error)}
        </span>
      )}
    </>
  )
}

export function DeleteRelease({ repo, release }: { repo: Repository; release: Release }) {
  const { t } = useTranslation('releases')
  const del = useDeleteRelease(repo.owner.login, repo.name, release.id)
  return (
    <>
      <Button
        variant="danger"
        size="sm"
        disabled={del.isPending}
        onClick={() => {
          if (window.confirm(t('confirmDelete', { tag: release.tag_name }))) del.mutate()
        }}
      >
        {t('delete')}
      </Button>
      {del.isError && (
        <span role="alert" className="inline-error">
          {errorText(del.error)}
        </span>
      )}
    </>
  )
}

export function DeleteAsset({ repo, release, asset }: { repo: Repository; release: Release; asset: Asset }) {
  const { t } = useTranslation('releases')
  const del = useDeleteAsset(repo.owner.login, repo.name, release.id, asset.id)
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={del.isPending}
      aria-label={t('assets.deleteNamed', { name: asset.name })}
      title={del.isError ? errorText(del.error) : undefined}
      onClick={() => {
        if (window.confirm(t('assets.confirmDelete', { name: asset.name }))) del.mutate()
      }}
    >
      {t('assets.delete')}
    </Button>
  )
}
