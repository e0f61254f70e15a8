// Package content embeds the site's Markdown: informational pages, docs,
// blog posts and the FAQ. Edit the .md files; the binary picks them up on
// the next build.
package content

import "embed"

// FS holds pages/*.md, docs/*.md, blog/*.md and faq.md.
//
//go:embed pages docs blog faq.md
var FS embed.FS
