import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Post, usePost, usePosts } from './api'
import { PostCard, PostMeta } from './PostCard'
import { relatedPosts } from './posts'
import './blog.css'

/** /blog/{slug}: one post, then up to three related posts. */
export default function BlogPostScreen() {
  const { t } = useTranslation('blog')
  const slug = useRoute().params.id ?? ''
  const post = usePost(slug)
  const missing = post.error instanceof NotFoundError
  useDocumentTitle(missing ? t('post.notFound.title') : post.data?.title)
  return (
    <>
      <PreloadLink className="blog-back" to="/blog">
        {t('post.back')}
      </PreloadLink>
      {missing ? (
        <PostNotFound slug={slug} />
      ) : (
        <QueryState query={post}>
          {(p) => (
            <>
              <article>
                <PageHeader title={p.title} lead={<PostMeta post={p} linkCategory />} />
                <Markdown html={p.html ?? ''} />
              </article>
              <RelatedPosts current={p} />
            </>
          )}
        </QueryState>
      )}
    </>
  )
}

function PostNotFound({ slug }: { slug: string }) {
  const { t } = useTranslation('blog')
  return (
    <section>
      <PageHeader title={t('post.notFound.title')} lead={t('post.notFound.description', { slug })} />
      <PreloadLink className="btn btn-primary btn-md" to="/blog">
        {t('post.notFound.action')}
      </PreloadLink>
    </section>
  )
}

function RelatedPosts({ current }: { current: Post }) {
  const { t } = useTranslation('blog')
  const posts = usePosts()
  return (
    <section className="blog-related" aria-labelledby="blog-related-title">
      <h2 id="blog-related-title">{t('related.title')}</h2>
      <QueryState query={posts}>
        {(list) => {
          const related = relatedPosts(list, current)
          if (related.length === 0) return <p className="muted">{t('related.empty')}</p>
          return (
            <ul className="grid blog-list">
              {related.map((p) => (
                <PostCard key={p.slug} post={p} heading="h3" />
              ))}
            </ul>
          )
        }}
      </QueryState>
    </section>
  )
}
