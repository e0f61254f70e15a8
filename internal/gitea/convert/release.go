package convert

import (
	"net/url"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/index"
)

// Release is Gitea's Release of rel in the repository full (owner/name)
// of site, published by author.
func Release(site, full string, author structs.User, rel index.Release) structs.Release {
	api := site + "/api/v1/repos/" + full + "/releases/" + strconv.FormatUint(rel.ID, 10)
	html := site + "/" + full
	tag := url.PathEscape(rel.TagName)
	out := structs.Release{ID: int64(rel.ID), TagName: rel.TagName, Target: rel.Target, Title: rel.Title, Note: rel.Note,
		URL: api, HTMLURL: html + "/releases/tag/" + tag, TarURL: html + "/archive/" + tag + ".tar.gz", ZipURL: html + "/archive/" + tag + ".zip",
		UploadURL: api + "/assets", Draft: rel.Draft, Prerelease: rel.Prerelease,
		CreatedAt: nsTime(rel.CreatedNS), PublishedAt: nsTime(rel.CreatedNS), Author: author, Assets: []structs.Attachment{},
		Signer: rel.Signer, Delegation: rel.Delegation}
	for _, as := range rel.Assets {
		out.Assets = append(out.Assets, Attachment(html, rel, as))
	}
	return out
}

// Attachment is Gitea's Attachment of asset as of release rel in the
// repository whose page is repoHTML: made when the release was, unless
// it says otherwise; its uuid is its CID, or, in a private repository,
// whose assets are no IPFS files, its SHA-256.
func Attachment(repoHTML string, rel index.Release, as index.Asset) structs.Attachment {
	created := as.CreatedNS
	if created == 0 {
		created = rel.CreatedNS
	}
	uuid := as.CID
	if uuid == "" {
		uuid = as.SHA256
	}
	return structs.Attachment{ID: int64(as.ID), Name: as.Name, Size: as.Size, DownloadCount: as.Downloads, CreatedAt: nsTime(created),
		UUID: uuid, CID: as.CID, SHA256: as.SHA256,
		DownloadURL: repoHTML + "/releases/download/" + url.PathEscape(rel.TagName) + "/" + url.PathEscape(as.Name)}
}

func nsTime(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339) }
