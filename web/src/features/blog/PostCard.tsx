import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
import type { Post } from './api'
import { categoryKey, categoryOf, formatPostDate } from './posts'

/** Date, author and category of a post, as inline text (it may sit in a paragraph). */
export function PostMeta({ post, linkCategory = false }: { post: Post; linkCategory?: boolean }) {
  const { t, i18n } = useTranslation('blog')
  const category = categoryOf(post)
  const label = t(categoryKey(category), { defaultValue: post.category })
  return (
    <span className="blog-meta">
      <time dateTime={post.date}>{formatPostDate(post.date, i18n.resolvedLanguage)}</time>
      {post.author && <span>{t('byAuthor', { author: post.author })}</span>}
      {post.category &&
        (linkCategory ? (
          <PreloadLink className="badge" to={`/blog?category=${encodeURIComponent(category)}`}>
            {label}
          </PreloadLink>
        ) : (
          <span className="badge">{label}</span>
        ))}
    </span>
  )
}

interface PostCardProps {
  post: Post
  /** The featured post is shown first and larger. */
  featured?: boolean
  as?: 'article' | 'li'
  heading?: 'h2' | 'h3'
}

/** A post in a list: title linking to the post, meta line and summary. */
export function PostCard({ post, featured = false, as = 'li', heading: Heading = 'h2' }: PostCardProps) {
  const { t } = useTranslation('blog')
  return (
    <Card as={as} size={featured ? 'lg' : 'md'} className={`blog-card${featured ? ' blog-featured' : ''}`}>
      {featured && <span className="badge blog-featured-badge">{t('featured')}</span>}
      <Heading className="blog-card-title">
        <PreloadLink to={`/blog/${encodeURIComponent(post.slug)}`}>{post.title}</PreloadLink>
      </Heading>
      <p className="muted">
        <PostMeta post={post} />
      </p>
      {post.summary && <p>{post.summary}</p>}
    </Card>
  )
}
